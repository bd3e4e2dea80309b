import type { Db, Queryable } from '../../db/db.js';

/**
 * Months partitions of `reading` and `telegram` (docs/scaling.md): the SQL
 * functions of migration 080 do the work, the same on PGlite and on a
 * PostgreSQL server, so the embedded engine needs no extension.
 */

/** How many months ahead the scheduled job keeps partitions ready. */
export const MONTHS_AHEAD = 3;

/** Creates the partitions of this month and the next `ahead`, and of any month waiting in the default partitions. */
export async function ensurePartitions(db: Queryable, now: Date, ahead = MONTHS_AHEAD): Promise<number> {
  const { rows } = await db.query<{ n: number }>('SELECT reading_partitions_ensure($1::timestamptz, $2::int) AS n', [
    now,
    ahead,
  ]);
  return rows[0]!.n;
}

/** `YYYY-MM` (or `YYYY-MM-DD` of a first day) as the first day of that month, or null. */
export function parseMonth(text: string): string | null {
  const m = /^(\d{4})-(0[1-9]|1[0-2])(?:-01)?$/.exec(text.trim());
  return m ? `${m[1]}-${m[2]}-01` : null;
}

/**
 * Detaches the month partitions before the month `before` (`YYYY-MM-01`) in one
 * transaction: of both tables, or with `telegramsOnly` of the raw telegrams alone
 * (readings are the record and stay; old telegrams are what fills the disk,
 * docs/scaling.md). They stay as plain tables to dump and drop
 * (docs/operations.md). Returns their names.
 */
export async function detachPartitions(db: Db, before: string, { telegramsOnly = false } = {}): Promise<string[]> {
  return db.transaction(async (tx) => {
    if (!telegramsOnly) {
      const { rows } = await tx.query<{ name: string }>('SELECT reading_partitions_detach($1::date) AS name', [before]);
      return rows.map((r) => r.name);
    }
    const { rows } = await tx.query<{ name: string }>(
      `SELECT c.relname::text AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'telegram'::regclass AND c.relname ~ '^telegram_p[0-9]{6}$'
          AND to_date(right(c.relname, 6), 'YYYYMM') < date_trunc('month', $1::date)::date
        ORDER BY 1`,
      [before],
    );
    for (const { name } of rows) await tx.exec(`ALTER TABLE telegram DETACH PARTITION ${name}`);
    return rows.map((r) => r.name);
  });
}

/** The month partitions attached now, by table, oldest first, with their row estimates. */
export async function listPartitions(db: Queryable) {
  const { rows } = await db.query<{ parent: string; name: string }>(
    `SELECT i.inhparent::regclass::text AS parent, c.relname::text AS name
       FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
      WHERE i.inhparent IN ('reading'::regclass, 'telegram'::regclass)
      ORDER BY 1, 2`,
  );
  return rows;
}

/**
 * Runs a writing transaction again when a month partition was attached while it ran
 * (the scheduled job moving a month out of the default partition, docs/scaling.md): a
 * row routed to the default partition just before the attach fails with "violates
 * partition constraint", and a lock-order deadlock with the move is possible. Both
 * mean "try again": the transaction wrote nothing, and the writers are idempotent.
 */
export async function retryWhilePartitionsMove<T>(fn: () => Promise<T>, attempts = 3): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const moved =
        (code === '23514' && /partition constraint/.test(err instanceof Error ? err.message : '')) || code === '40P01';
      if (!moved || attempt >= attempts) throw err;
    }
  }
}

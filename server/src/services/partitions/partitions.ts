import type { Db, Queryable } from '../../db/db.js';

/**
 * Months partitions of `reading` and `telegram` (docs/scaling.md): the SQL
 * functions of migration 080 do the work, the same on PGlite and on a
 * PostgreSQL server, so the embedded engine needs no extension.
 */

/** How many months ahead the scheduled job keeps partitions ready. */
export const MONTHS_AHEAD = 3;

/**
 * Creates the partitions of this month and the next `ahead`, and of any month waiting in the
 * default partitions (moving its rows, docs/scaling.md); each table's month in a transaction
 * of its own, so a move holds its lock for one month of one table only. Returns how many.
 */
export async function ensurePartitions(db: Queryable, now: Date, ahead = MONTHS_AHEAD): Promise<number> {
  const { rows } = await db.query<{ parent: string; month: string }>(
    `SELECT p.parent, to_char(m.month, 'YYYY-MM-DD') AS month
       FROM (SELECT date_trunc('month', ($1::timestamptz AT TIME ZONE 'UTC') + make_interval(months => k))::date AS month
               FROM generate_series(0, $2::int) k) m
      CROSS JOIN (VALUES ('reading'), ('telegram')) p(parent)
     UNION
     SELECT 'reading', to_char(date_trunc('month', ts AT TIME ZONE 'UTC'), 'YYYY-MM-DD') FROM reading_default
     UNION
     SELECT 'telegram', to_char(date_trunc('month', ts AT TIME ZONE 'UTC'), 'YYYY-MM-DD') FROM telegram_default
     ORDER BY 1, 2`,
    [now, ahead],
  );
  let created = 0;
  for (const { parent, month } of rows) {
    const { rows: done } = await db.query<{ created: boolean }>(
      'SELECT month_partition_create($1, $2::date) AS created',
      [parent, month],
    );
    if (done[0]!.created) created++;
  }
  return created;
}

/** A writer found months without their partition among the rows it is about to write. */
export class PartitionsMissing extends Error {
  constructor(readonly months: string[]) {
    super(`month partitions missing: ${months.join(', ')}`);
  }
}

/**
 * Inside a writer's transaction, before it writes readings or telegrams at `times`: throws
 * PartitionsMissing when a month among them has no partition yet, so that `writeIntoMonths`
 * creates them (outside the transaction, briefly) and runs the writer again. The default
 * partition so stays empty in normal operation (docs/scaling.md).
 */
export async function requireMonthPartitions(tx: Queryable, times: readonly (Date | string)[]): Promise<void> {
  if (times.length === 0) return;
  const { rows } = await tx.query<{ months: string[] }>(
    `SELECT array(SELECT to_char(m, 'YYYY-MM-DD') FROM unnest(month_partitions_missing($1::timestamptz[])) m) AS months`,
    [times],
  );
  if (rows[0]!.months.length) throw new PartitionsMissing(rows[0]!.months);
}

/** requireMonthPartitions for the times a query gives (`SELECT ts FROM csv_reading`). */
export async function requireMonthPartitionsOf(tx: Queryable, timesSql: string): Promise<void> {
  const { rows } = await tx.query<{ months: string[] }>(
    `SELECT array(SELECT to_char(m, 'YYYY-MM-DD')
                    FROM unnest(month_partitions_missing(array(
                           SELECT DISTINCT date_trunc('month', x.ts AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
                             FROM (${timesSql}) x(ts)))) m) AS months`,
  );
  if (rows[0]!.months.length) throw new PartitionsMissing(rows[0]!.months);
}

/** Creates the partitions of both tables for the given months (`YYYY-MM-DD`), each in its own transaction. */
export async function createMonthPartitions(db: Queryable, months: readonly string[]): Promise<void> {
  for (const month of months)
    for (const parent of ['reading', 'telegram'])
      await db.query('SELECT month_partition_create($1, $2::date)', [parent, month]);
}

/** The first days (`YYYY-MM-DD`, UTC months) of the months from `from` to `till`, both included. */
export function monthsBetween(from: Date, till: Date): string[] {
  const months: string[] = [];
  for (
    let y = from.getUTCFullYear(), m = from.getUTCMonth();
    y * 12 + m <= till.getUTCFullYear() * 12 + till.getUTCMonth();
    m++
  ) {
    if (m === 12) {
      m = 0;
      y++;
    }
    months.push(`${y}-${String(m + 1).padStart(2, '0')}-01`);
  }
  return months;
}

/**
 * Runs a writing transaction so that partition maintenance never shows: when it finds months
 * without a partition (PartitionsMissing) they are created and it runs again; when a month was
 * moved while it ran (retryWhilePartitionsMove) it runs again. The writers are idempotent.
 */
export async function writeIntoMonths<T>(db: Queryable, fn: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await retryWhilePartitionsMove(fn);
    } catch (err) {
      if (!(err instanceof PartitionsMissing) || attempt >= 4) throw err;
      await createMonthPartitions(db, err.months);
    }
  }
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

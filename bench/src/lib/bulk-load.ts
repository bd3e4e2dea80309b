import type { Db } from '@rodmenys/server/db/db.js';

/**
 * The usual bulk-load recipe: drop the table's constraints and indexes, run
 * `load`, then build them again (one sort per index instead of one insert per
 * row; foreign keys validated by one join). Whatever the migrations defined is
 * read from the catalog and recreated as it was.
 */
export async function withoutKeys(db: Db, table: string, load: () => Promise<void>): Promise<void> {
  const { rows: constraints } = await db.query<{ name: string; def: string }>(
    `SELECT quote_ident(conname) AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
      WHERE conrelid = $1::regclass AND contype IN ('p', 'u', 'f') ORDER BY contype = 'f', conname`,
    [table],
  );
  const { rows: indexes } = await db.query<{ name: string; def: string }>(
    `SELECT quote_ident(i.relname) AS name, pg_get_indexdef(i.oid) AS def FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid
      WHERE x.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = x.indexrelid)`,
    [table],
  );
  for (const c of [...constraints].reverse()) await db.exec(`ALTER TABLE ${table} DROP CONSTRAINT ${c.name}`);
  for (const i of indexes) await db.exec(`DROP INDEX ${i.name}`);
  await load();
  for (const i of indexes) await db.exec(i.def);
  for (const c of constraints) await db.exec(`ALTER TABLE ${table} ADD CONSTRAINT ${c.name} ${c.def}`);
}

/**
 * The month partitions of readings and telegrams for [from, till] (docs/scaling.md), made before a
 * bulk load of history: rows of a month without its partition would land in the default one, as an
 * import of old readings does until the scheduled `partitions` job moves them.
 */
export async function monthPartitions(db: Db, from: Date, till: Date): Promise<void> {
  await db.query(
    `SELECT month_partition_create(t, m::date)
       FROM unnest(ARRAY['reading', 'telegram']) t,
            generate_series(date_trunc('month', $1::timestamptz AT TIME ZONE 'UTC'), $2::timestamptz AT TIME ZONE 'UTC', interval '1 month') m`,
    [from, till],
  );
}

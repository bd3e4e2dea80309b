import { describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../test/db.js';
import { makeBuilding, makeFlat } from '../test/factories.js';
import { migrate } from './migrate.js';

const MIGRATION = '420_snapshots_lz4.sql';

/** A value's compression method ('pglz', 'lz4'), or null when kept uncompressed. */
const COMPRESSION = `SELECT pg_column_compression(s.statement) AS statement, pg_column_compression(b.rows) AS rows
  FROM statement_snapshot s JOIN billing_snapshot b USING (publication_id) WHERE publication_id = $1`;

/**
 * Migration 420 (publishing's frozen texts compressed with lz4 where the server has it, docs/benchmarks.md
 * "Publishing: fifth pass") on a database already holding published versions: the test database is taken back
 * to the state before it, filled with a version compressed as before, and migrated again.
 */
describe(`migration ${MIGRATION} on a filled database (${dbKind()})`, () => {
  const t = useDb();

  it('keeps every version as it was and compresses what is frozen from then on with lz4 where the server has it', async () => {
    // Back to before 420 (pglz: PostgreSQL's default).
    await t.db.exec(`
      ALTER TABLE statement_snapshot ALTER COLUMN statement SET COMPRESSION pglz,
                                     ALTER COLUMN occupancies SET COMPRESSION pglz;
      ALTER TABLE billing_snapshot ALTER COLUMN rows SET COMPRESSION pglz;
      DELETE FROM schema_migration WHERE name = '${MIGRATION}';`);
    const building = await makeBuilding(t.db);
    const flat = await makeFlat(t.db, building);
    // A version of a statement and an export large enough to be compressed (a few hundred kB of JSON).
    const freeze = async (version: number) => {
      const { rows } = await t.db.query<{ id: number }>(
        `INSERT INTO statement_publication (month, building_id, version) VALUES ('2026-10-01', $1, $2) RETURNING id`,
        [building.id, version],
      );
      const id = rows[0]!.id;
      await t.db.query(
        `INSERT INTO statement_snapshot (publication_id, flat_id, statement)
         SELECT $1, $2, jsonb_build_object('Month', '2026-10', 'History',
                  (SELECT jsonb_agg(jsonb_build_object('Month', i, 'Value', i * 1.5, 'Partial', false)) FROM generate_series(1, 5000) i))`,
        [id, flat.id],
      );
      await t.db.query(
        `INSERT INTO billing_snapshot (publication_id, rows, row_count)
         SELECT $1, (SELECT json_agg(json_build_object('Line', 'device', 'DeviceId', i, 'Consumption', i * 0.25))::text
                       FROM generate_series(1, 5000) i), 5000`,
        [id],
      );
      return id;
    };
    const old = await freeze(1);
    const text = `SELECT s.statement::text AS s, b.rows FROM statement_snapshot s JOIN billing_snapshot b USING (publication_id)
                   WHERE publication_id = $1`;
    const before = (await t.db.query<{ s: string; rows: string }>(text, [old])).rows[0]!;
    expect((await t.db.query(COMPRESSION, [old])).rows[0]).toEqual({ statement: 'pglz', rows: 'pglz' });

    expect(await migrate(t.db)).toEqual([MIGRATION]);
    // The version kept before reads the same, still compressed as it was.
    expect((await t.db.query(text, [old])).rows[0]).toEqual(before);
    expect((await t.db.query(COMPRESSION, [old])).rows[0]).toEqual({ statement: 'pglz', rows: 'pglz' });
    // A version frozen now: lz4 on a PostgreSQL server built with it (this one), pglz on the embedded engine.
    const now = await freeze(2);
    const method = dbKind() === 'postgres' ? 'lz4' : 'pglz';
    expect((await t.db.query(COMPRESSION, [now])).rows[0]).toEqual({ statement: method, rows: method });
    expect((await t.db.query(text, [now])).rows[0]).toEqual(before);
  });
});

import { describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat } from '../test/factories.js';
import { migrate } from './migrate.js';

const MIGRATION = '345_lns_silent.sql';

/**
 * Migration 345 (anomaly.lns_connection_id, docs/lorawan.md "A silent connection") on a database
 * already full of anomalies: the test database is taken back to the state before it, filled,
 * and migrated again.
 */
describe(`migration ${MIGRATION} on a filled database (${dbKind()})`, () => {
  const t = useDb();

  it('keeps every anomaly, then tells two silent connections of one building apart and follows a deleted one', async () => {
    // Back to before 345.
    await t.db.exec(`
      DROP INDEX anomaly_unresolved;
      ALTER TABLE anomaly DROP COLUMN lns_connection_id;
      CREATE UNIQUE INDEX anomaly_unresolved ON anomaly (rule, building_id, coalesce(device_id, 0), month, coalesce(collector_id, 0))
        WHERE state <> 'resolved';
      DELETE FROM schema_migration WHERE name = '${MIGRATION}';`);

    // Filled: open, acknowledged and resolved anomalies of devices, buildings and two silent collectors of one building.
    const building = await makeBuilding(t.db);
    const device = await makeDevice(t.db, await makeFlat(t.db, building));
    const { rows: keys } = await t.db.query<{ id: number }>(
      `INSERT INTO collector_key (name, key_hash, prefix)
       SELECT 'C' || i, sha256(('k' || i)::bytea), 'rmc_' || i FROM generate_series(1, 2) i RETURNING id`,
    );
    await t.db.query(
      `INSERT INTO anomaly (rule, building_id, device_id, collector_id, month, state, resolved_at, evidence)
       SELECT r.rule, $1, r.device_id, r.collector_id, r.month::date, r.state,
              CASE WHEN r.state = 'resolved' THEN now() END, '{}'
         FROM (VALUES ('SILENT', $2::int, NULL::int, '0001-01-01', 'open'),
                      ('SILENT', $2, NULL, '0001-01-01', 'resolved'),
                      ('SILENT', $2, NULL, '0001-01-01', 'resolved'),
                      ('HIGH_CONSUMPTION', $2, NULL, '2026-10-01', 'acknowledged'),
                      ('ESTIMATED_SHARE', NULL, NULL, '2026-10-01', 'open'),
                      ('COLLECTOR_SILENT', NULL, $3, '0001-01-01', 'open'),
                      ('COLLECTOR_SILENT', NULL, $4, '0001-01-01', 'open'),
                      ('COLLECTOR_SILENT', NULL, $3, '0001-01-01', 'resolved')) r(rule, device_id, collector_id, month, state)`,
      [building.id, device, keys[0]!.id, keys[1]!.id],
    );
    const before = (await t.db.query<{ s: string }>('SELECT json_agg(a ORDER BY a.id)::text AS s FROM anomaly a'))
      .rows[0]!.s;

    expect(await migrate(t.db)).toEqual([MIGRATION]);
    const after = (
      await t.db.query<{ s: string }>(
        `SELECT json_agg(to_jsonb(a) - 'lns_connection_id' ORDER BY a.id)::text AS s FROM anomaly a`,
      )
    ).rows[0]!.s;
    expect(JSON.parse(after)).toEqual(JSON.parse(before));

    // Two connections silent in the same building: two anomalies; a second open one of the same connection: refused.
    const { rows: conns } = await t.db.query<{ id: number }>(
      `INSERT INTO lns_connection (kind, name, key_hash, prefix)
       SELECT 'chirpstack', 'L' || i, sha256(('l' || i)::bytea), 'rml_' || i FROM generate_series(1, 2) i RETURNING id`,
    );
    const open = (connection: number) =>
      t.db.query(
        `INSERT INTO anomaly (rule, building_id, lns_connection_id, evidence) VALUES ('LNS_SILENT', $1, $2, '{}')`,
        [building.id, connection],
      );
    await open(conns[0]!.id);
    await open(conns[1]!.id);
    await expect(open(conns[0]!.id)).rejects.toThrow(/anomaly_unresolved/);
    // A connection's row removed (connections are deleted by marking them; this is the cascade): its anomalies go.
    await t.db.query('DELETE FROM lns_connection WHERE id = $1', [conns[1]!.id]);
    const { rows } = await t.db.query<{ id: number }>(
      "SELECT lns_connection_id AS id FROM anomaly WHERE rule = 'LNS_SILENT'",
    );
    expect(rows).toEqual([{ id: conns[0]!.id }]);
  });
});

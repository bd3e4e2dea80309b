import { DEVICE_TYPE } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../db/migrate.js';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings } from '../../test/factories.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';

/*
 * The month ends' pairs (docs/statements.md, "The month ends' pairs"): whatever writes month_end, the
 * table holds exactly month_end joined with itself a month apart, and the migration fills it on a
 * database that has month ends already.
 */

const t = useDb();

/** The pairs as month_end gives them, and the rows of month_end_pair that differ from them (as text). */
async function differences(): Promise<{ pairs: number; differ: number }> {
  const { rows } = await t.db.query<{ pairs: number; differ: number }>(
    `WITH want AS (
       SELECT coalesce(e.device_id, s.device_id) AS device_id, coalesce(e.month, (s.month + interval '1 month')::date) AS month,
              s.value::text AS sv, s.source AS ss, e.value::text AS ev, e.source AS es
         FROM month_end e FULL JOIN month_end s ON s.device_id = e.device_id AND s.month = (e.month - interval '1 month')::date
     ), have AS (
       SELECT device_id, month, start_value::text, start_source, end_value::text, end_source FROM month_end_pair
     )
     SELECT (SELECT count(*) FROM want)::int AS pairs,
            (SELECT count(*) FROM ((SELECT * FROM want EXCEPT ALL SELECT * FROM have)
                                   UNION ALL (SELECT * FROM have EXCEPT ALL SELECT * FROM want)) x)::int AS differ`,
  );
  return rows[0]!;
}

const pairOf = async (device: number, month: string) =>
  (
    await t.db.query<{ sv: string | null; ss: string | null; ev: string | null; es: string | null }>(
      `SELECT start_value::text AS sv, start_source AS ss, end_value::text AS ev, end_source AS es
         FROM month_end_pair WHERE device_id = $1 AND month = $2::date`,
      [device, month],
    )
  ).rows[0];

describe('month_end_pair', () => {
  let a = 0;
  let b = 0;

  it('follows the month ends the scheduled work writes from readings, a late reading included', async () => {
    const building = await makeBuilding(t.db);
    const flat = await makeFlat(t.db, building);
    a = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, installedAt: '2026-01-01T00:00:00+02:00' });
    b = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.hotWaterMeter, installedAt: '2026-01-01T00:00:00+02:00' });
    // Daily readings through March and April, none in May: May's month end is estimated or missing.
    const days = Array.from({ length: 61 }, (_, i) => new Date(Date.UTC(2026, 2, 1 + i, 10)));
    await makeReadings(
      t.db,
      a,
      days.map((d, i) => [d.toISOString(), 100 + i * 0.5]),
    );
    await makeReadings(
      t.db,
      b,
      days.map((d, i) => [d.toISOString(), 50 + i * 0.25]),
    );
    await refreshMonthEnds(t.db, new Date('2026-06-10T10:00:00Z'), { ensure: true });
    const first = await differences();
    expect(first.pairs).toBeGreaterThan(4);
    expect(first.differ).toBe(0);
    const april = await pairOf(a, '2026-04-01');
    expect(april?.sv).not.toBeNull();
    expect(april?.ev).not.toBeNull();

    // A reading arriving late moves April's month end: its pair and May's follow.
    await makeReadings(t.db, a, [['2026-04-30T23:30:00+03:00', 160]]);
    await t.db.query(`INSERT INTO dq_pending (device_id, month) VALUES ($1, '2026-04-01') ON CONFLICT DO NOTHING`, [a]);
    await refreshMonthEnds(t.db, new Date('2026-06-10T11:00:00Z'));
    expect(await differences()).toMatchObject({ differ: 0 });
    expect((await pairOf(a, '2026-04-01'))?.ev).not.toBe(april?.ev);
  });

  it('follows every kind of write: insert, upsert, value, source, key, delete, many rows, truncate', async () => {
    const writes = [
      `INSERT INTO month_end (device_id, month, value, source) VALUES (${a}, '2025-06-01', 7, 'manual')`,
      `INSERT INTO month_end AS me (device_id, month, value, source) VALUES (${a}, '2026-04-01', 123.5, 'manual')
         ON CONFLICT (device_id, month) DO UPDATE SET value = excluded.value, source = 'manual'`,
      `UPDATE month_end SET value = value + 1 WHERE device_id = ${b} AND month = '2026-03-01'`,
      `UPDATE month_end SET value = value WHERE device_id = ${b}`,
      `UPDATE month_end SET source = 'estimated' WHERE device_id = ${b} AND month = '2026-04-01'`,
      `UPDATE month_end SET month = '2025-07-01' WHERE device_id = ${a} AND month = '2025-06-01'`,
      `UPDATE month_end SET value = value * 2 WHERE month = '2026-03-01'`,
      `DELETE FROM month_end WHERE device_id = ${a} AND month = '2026-03-01'`,
      `DELETE FROM month_end WHERE device_id = ${b}`,
    ];
    for (const sql of writes) {
      await t.db.query(sql);
      expect({ sql, ...(await differences()) }).toMatchObject({ sql, differ: 0 });
    }
    // The pair of a month end with no neighbour, and none left for a month end removed.
    expect(await pairOf(a, '2025-08-01')).toMatchObject({ sv: '7', ss: 'manual', ev: null, es: null });
    expect(await pairOf(b, '2026-04-01')).toBeUndefined();
    await t.db.query('TRUNCATE month_end');
    expect(await differences()).toEqual({ pairs: 0, differ: 0 });
    expect((await t.db.query('SELECT 1 FROM month_end_pair')).rows).toHaveLength(0);
  });

  it('is filled by its migration on a database that has month ends already', async () => {
    await refreshMonthEnds(t.db, new Date('2026-06-10T12:00:00Z'), { ensure: true });
    // As before the migration: no pairs table, no triggers; then migrate again.
    await t.db.exec(`DROP TABLE month_end_pair;
      DROP TRIGGER month_end_pair_insert ON month_end; DROP TRIGGER month_end_pair_update ON month_end;
      DROP TRIGGER month_end_pair_delete ON month_end; DROP TRIGGER month_end_pair_truncate ON month_end;
      DROP FUNCTION month_end_pair_keep(); DROP FUNCTION month_end_pair_clear(); DROP FUNCTION month_end_pair_refresh(integer[], date[]);
      DROP FUNCTION month_end_pair_keys(integer[], date[]);
      DELETE FROM schema_migration WHERE name = '375_month_end_pair.sql';`);
    await t.db.query(`UPDATE month_end SET value = value + 0.001 WHERE device_id = $1`, [a]);
    expect(await migrate(t.db)).toEqual(['375_month_end_pair.sql']);
    const filled = await differences();
    expect(filled.pairs).toBeGreaterThan(4);
    expect(filled.differ).toBe(0);
  });

  it('two transactions changing the two month ends of one pair leave it as both committed', async () => {
    const { rows } = await t.db.query<{ month: string }>(
      `SELECT to_char(month, 'YYYY-MM-DD') AS month FROM month_end WHERE device_id = $1 AND month >= '2026-03-01'
          ORDER BY month LIMIT 2`,
      [a],
    );
    const [m1, m2] = [rows[0]!.month, rows[1]!.month];
    const change = (month: string, by: number) =>
      t.db.transaction((tx) =>
        tx.query(`UPDATE month_end SET value = value + $3 WHERE device_id = $1 AND month = $2::date`, [a, month, by]),
      );
    if (dbKind() === 'pglite') {
      // One connection: its transactions run one after the other, the only order there is.
      await change(m1, 10);
      await change(m2, 20);
      expect(await differences()).toMatchObject({ differ: 0 });
      return;
    }
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let updated = () => {};
    const first = new Promise<void>((resolve) => {
      updated = resolve;
    });
    // The first changes m1 (its pair and m2's) and holds its transaction open.
    const one = t.db.transaction(async (tx) => {
      await tx.query(`UPDATE month_end SET value = value + 10 WHERE device_id = $1 AND month = $2::date`, [a, m1]);
      updated();
      await held;
    });
    await first;
    // The second changes m2 meanwhile (m2's pair also starts at m1) and must wait for the first.
    const two = change(m2, 20);
    for (let i = 0; i < 200; i++) {
      const { rows: waiting } = await t.db.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      if (waiting[0]!.n > 0) break;
      await new Promise((r) => setTimeout(r, 25));
    }
    release();
    await Promise.all([one, two]);
    expect(await differences()).toMatchObject({ differ: 0 });
  });
});

import { describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings } from '../../test/factories.js';
import {
  detachPartitions,
  ensurePartitions,
  listPartitions,
  parseMonth,
  retryWhilePartitionsMove,
} from './partitions.js';

const t = useDb();

const count = async (sql: string, params: unknown[] = []) =>
  (await t.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${sql}`, params)).rows[0]!.n;
const names = async () => (await listPartitions(t.db)).map((p) => p.name);

describe(`readings partitioned by month (${dbKind()})`, () => {
  it('reading and telegram are partitioned by ts, with the key and checks of before', async () => {
    const { rows } = await t.db.query<{ relname: string; relkind: string; key: string }>(
      `SELECT relname, relkind::text, pg_get_partkeydef(oid) AS key FROM pg_class
        WHERE relname IN ('reading', 'telegram') ORDER BY 1`,
    );
    expect(rows).toEqual([
      { relname: 'reading', relkind: 'p', key: 'RANGE (ts)' },
      { relname: 'telegram', relkind: 'p', key: 'RANGE (ts)' },
    ]);
    const { rows: constraints } = await t.db.query<{ conname: string }>(
      `SELECT conname FROM pg_constraint WHERE conrelid IN ('reading'::regclass, 'telegram'::regclass) AND contype IN ('p', 'c') ORDER BY 1`,
    );
    expect(constraints.map((c) => c.conname)).toEqual([
      'reading_pkey',
      'reading_value_finite',
      'telegram_pkey',
      'telegram_set_value_finite',
    ]);
    const names = await listPartitions(t.db);
    expect(names.map((p) => p.name)).toContain('reading_default');
    expect(names.map((p) => p.name)).toContain('telegram_default');
  });

  it('keeps the coming months ready, moves months waiting in the default partition into their own, and detaches old ones', async () => {
    const flat = await makeFlat(t.db, await makeBuilding(t.db));
    const device = await makeDevice(t.db, flat);
    // Readings of 2015 (an import of old values) and of next year: no partition yet, so the default one takes them.
    await makeReadings(t.db, device, [
      ['2015-11-30T23:30:00Z', 10],
      ['2015-12-01T00:30:00Z', 11],
      ['2015-12-31T23:59:59Z', 12],
      ['2030-06-15T12:00:00Z', 90],
    ]);
    await t.db.query(
      `INSERT INTO telegram (device_id, ts, raw) VALUES ($1, '2015-12-10T00:00:00Z', '{}'), ($1, '2030-06-15T12:00:00Z', '{}')`,
      [device],
    );
    expect(await count('reading_default WHERE device_id = $1', [device])).toBe(4);

    const created = await ensurePartitions(t.db, new Date('2030-06-20T00:00:00Z'), 2);
    // 2015-11, 2015-12, 2030-06, -07, -08 for readings; 2015-12 and 2030-06..08 for telegrams.
    expect(created).toBe(5 + 4);
    expect(await names()).toEqual(
      expect.arrayContaining([
        'reading_p201511',
        'reading_p201512',
        'reading_p203006',
        'reading_p203007',
        'reading_p203008',
        'telegram_p201512',
        'telegram_p203006',
      ]),
    );
    expect(await count('reading_default')).toBe(0);
    expect(await count('telegram_default')).toBe(0);
    // Every row where its month says, the same rows seen through the parent.
    expect(await count('reading_p201511')).toBe(1);
    expect(await count('reading_p201512')).toBe(2);
    expect(await count('reading WHERE device_id = $1', [device])).toBe(4);
    // Again: nothing to do.
    expect(await ensurePartitions(t.db, new Date('2030-06-20T00:00:00Z'), 2)).toBe(0);

    // COPY through the parent lands in the month's partition.
    await t.db.copyIn('COPY reading (device_id, ts, meter_ts, value) FROM STDIN WITH (FORMAT csv)', [
      `${device},2015-12-15 12:00:00+00,,11.5\n${device},2030-07-01 00:00:00+00,,91\n`,
    ]);
    expect(await count('reading_p201512')).toBe(3);
    expect(await count('reading_p203007')).toBe(1);

    // The raw telegrams alone: the readings of the month stay.
    expect(await detachPartitions(t.db, '2016-01-01', { telegramsOnly: true })).toEqual(['telegram_p201512']);
    expect(await names()).toContain('reading_p201512');
    expect(await count('telegram_p201512')).toBe(1);
    await t.db.exec('DROP TABLE telegram_p201512');

    const detached = await detachPartitions(t.db, '2016-01-01');
    expect(detached).toEqual(['reading_p201511', 'reading_p201512']);
    expect(detached.every((name) => /_p(19|20)\d\d(0[1-9]|1[0-2])$/.test(name) && name < 'telegram_p201601')).toBe(
      true,
    );
    expect(await names()).not.toContain('reading_p201512');
    // Detached: gone from the readings, kept as a table to dump and drop.
    expect(await count('reading WHERE device_id = $1', [device])).toBe(2);
    expect(await count('reading_p201512')).toBe(3);
    await t.db.exec('DROP TABLE reading_p201511, reading_p201512');
    expect(await detachPartitions(t.db, '2016-01-01')).toEqual([]);
  });

  it('GetDevicesData-style probes read only the partitions of their months', async () => {
    await ensurePartitions(t.db, new Date('2031-01-15T00:00:00Z'), 1);
    const { rows } = await t.db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (COSTS OFF) SELECT value FROM reading WHERE device_id = 1
          AND ts >= '2031-01-01T00:00:00Z' AND ts < '2031-02-01T00:00:00Z' ORDER BY ts DESC LIMIT 1`,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('reading_p203101');
    expect(plan).not.toMatch(/reading_p2030|reading_default/);
  });

  it('a write caught by a partition being attached is tried again; other errors are not', async () => {
    const moved = Object.assign(new Error('new row for relation "telegram_default" violates partition constraint'), {
      code: '23514',
    });
    let calls = 0;
    const flaky = async () => {
      calls++;
      if (calls < 3) throw moved;
      return 'stored';
    };
    expect(await retryWhilePartitionsMove(flaky)).toBe('stored');
    expect(calls).toBe(3);
    calls = 0;
    const other = Object.assign(new Error('value too long'), { code: '22001' });
    await expect(
      retryWhilePartitionsMove(async () => {
        calls++;
        throw other;
      }),
    ).rejects.toBe(other);
    expect(calls).toBe(1);
    // At most `attempts` tries.
    calls = 0;
    await expect(
      retryWhilePartitionsMove(async () => {
        calls++;
        throw moved;
      }),
    ).rejects.toBe(moved);
    expect(calls).toBe(3);
  });

  it('reads a month as YYYY-MM', () => {
    expect(parseMonth('2016-01')).toBe('2016-01-01');
    expect(parseMonth('2016-01-01')).toBe('2016-01-01');
    expect(parseMonth('2016-13')).toBeNull();
    expect(parseMonth('2016-01-15')).toBeNull();
    expect(parseMonth('January')).toBeNull();
  });
});

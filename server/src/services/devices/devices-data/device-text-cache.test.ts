import type { ReadingRow } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Queryable } from '../../../db/db.js';
import { inject, useApp } from '../../../test/app.js';
import { dbKind } from '../../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn } from '../../../test/factories.js';
import { DeviceTextCache } from './device-text-cache.js';
import { DevicesDataCaches, getDevicesDataJson } from './index.js';

// GetDevicesData keeps each device's fixed text (names, address, codes) between
// calls while the master data stay the same (migration 040, device-text-cache.ts).
describe(`GetDevicesData and the master-data version (${dbKind()})`, () => {
  const t = useApp();
  let token: string;
  let building: number;
  let flat: number;
  let a: number;
  let b: number;

  beforeAll(async () => {
    const place = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '7' });
    building = place.id;
    flat = (await makeFlat(t.db, place, { name: '3', order: 3 })).id;
    await t.db.query(`INSERT INTO object (location_id, code, name) VALUES ($1, 'OBJ-7', 'Laisvės al. 7')`, [building]);
    a = await makeDevice(t.db, flat, {
      typeId: DEVICE_TYPE.allocator,
      code: 'TXT-A',
      ratingFactor: 1.2,
      description: 'Kambarys',
    });
    b = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.allocator, code: 'TXT-B', ratingFactor: 0.9 });
    for (const id of [a, b]) {
      await makeReadings(t.db, id, [
        ['2026-01-31T12:00:00+02:00', 10],
        ['2026-02-27T12:00:00+02:00', 25],
      ]);
    }
    token = (await makeSignedIn(t.app, { groupId: GROUP.operator })).token;
  });

  const version = async () =>
    (await t.db.query<{ v: string }>('SELECT sum(n)::text AS v FROM master_change')).rows[0]!.v;
  const getData = async (): Promise<ReadingRow[]> => {
    const res = await inject(t.app, contract.getDevicesData, {
      query: `dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=${DEVICE_TYPE.allocator}&locationParentId=${building}`,
      token,
    });
    expect(res.status).toBe(200);
    return res.body as ReadingRow[];
  };
  /** The answer with no text kept: as the first call after any master-data change. */
  const computedAfresh = async () => {
    await t.db.query('INSERT INTO master_change DEFAULT VALUES');
    return getData();
  };
  const row = (rows: ReadingRow[], id: number) => rows.find((r) => r.DeviceId === id)!;

  it('grows once per transaction that changes master data, and only then', async () => {
    const v0 = await version();
    // Readings and telegram status are not master data.
    await makeReadings(t.db, a, [['2026-02-10T12:00:00+02:00', 15]]);
    await t.db.query(`UPDATE device_status SET flags = '{POWER_LOW}' WHERE device_id = $1`, [a]);
    expect(await version()).toBe(v0);

    await t.db.query(`UPDATE device SET description = 'Kambarys' WHERE id = $1`, [a]);
    const v1 = await version();
    expect(BigInt(v1)).toBe(BigInt(v0) + 1n);

    // Several statements over several tables in one transaction: one step.
    await t.db.transaction(async (tx) => {
      await tx.query(`UPDATE location SET flat_order = 3 WHERE id = $1`, [flat]);
      await tx.query(`UPDATE object SET name = 'Laisvės al. 7' WHERE location_id = $1`, [building]);
      await tx.query(`UPDATE device SET counter_code = counter_code WHERE id = ANY($1::int[])`, [[a, b]]);
    });
    const v2 = await version();
    expect(BigInt(v2)).toBe(BigInt(v1) + 1n);

    // Each master table counts.
    for (const sql of [
      `UPDATE client SET name = name`,
      `UPDATE device_type SET name_en = name_en WHERE id = 1`,
      `UPDATE location SET name = name WHERE id = ${flat}`,
      `UPDATE object SET code = code`,
      `UPDATE device SET rating_factor = rating_factor WHERE id = ${b}`,
    ]) {
      const before = BigInt(await version());
      await t.db.query(sql);
      expect(BigInt(await version()), sql).toBe(before + 1n);
    }

    // A transaction that rolls back leaves no trace.
    const v3 = await version();
    await expect(
      t.db.transaction(async (tx) => {
        await tx.query(`UPDATE device SET description = 'never' WHERE id = $1`, [a]);
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await version()).toBe(v3);
  });

  it('shows every master-data change on the next call, as computed afresh', async () => {
    const admin = { token };
    const before = await getData();
    expect(await getData()).toEqual(before);
    expect(row(before, a)).toMatchObject({ DeviceDescription: 'Kambarys', Flat: '3', ObjectCode: 'OBJ-7' });

    // Each edit through the API, then the next call (texts kept until then) against a fresh computation.
    const edits: Array<[string, () => Promise<unknown>, (rows: ReadingRow[]) => void]> = [
      [
        'device description',
        () => inject(t.app, contract.updateDevice, { params: { id: a }, ...admin, body: { description: 'Svetainė' } }),
        (rows) => expect(row(rows, a).DeviceDescription).toBe('Svetainė'),
      ],
      [
        'flat renamed',
        () => inject(t.app, contract.updateLocation, { params: { id: flat }, ...admin, body: { name: '3A' } }),
        (rows) => expect(rows.map((r) => r.Flat)).toEqual(['3A', '3A']),
      ],
      [
        'building renamed (its flats follow)',
        () => inject(t.app, contract.updateLocation, { params: { id: building }, ...admin, body: { name: '7B' } }),
        (rows) => expect(rows.map((r) => r.Building)).toEqual(['7B', '7B']),
      ],
      [
        "flat's client",
        () =>
          inject(t.app, contract.setFlatClient, {
            params: { id: flat },
            ...admin,
            body: { clientCode: 'CL-77', clientName: 'Jonas Jonaitis' },
          }),
        (rows) => expect(row(rows, b).ClientCode).toBe('CL-77'),
      ],
      [
        'object code',
        () => t.db.query(`UPDATE object SET code = 'OBJ-7B' WHERE location_id = $1`, [building]),
        (rows) => expect(row(rows, a).ObjectCode).toBe('OBJ-7B'),
      ],
      [
        'device replaced',
        () =>
          inject(t.app, contract.replaceDevice, {
            params: { id: b },
            ...admin,
            body: {
              replacedAt: '2026-02-20T12:00:00+02:00',
              finalReading: 30,
              newDeviceCode: 'TXT-C',
              initialReading: 0,
            },
          }),
        (rows) => {
          const c = rows.find((r) => r.DeviceCode === 'TXT-C')!;
          expect(row(rows, b)).toMatchObject({ RemovedAt: '2026-02-20T12:00:00+02:00', ReplacedBy: c.DeviceId });
          expect(c.Replaces).toBe(b);
        },
      ],
    ];
    for (const [what, edit, check] of edits) {
      const res = (await edit()) as { status?: number };
      if (res.status !== undefined) expect(res.status, what).toBeLessThan(300);
      const next = await getData();
      check(next);
      expect(next, what).toEqual(await computedAfresh());
    }
  });

  it('keeps only texts read under the version asked for', async () => {
    const cache = new DeviceTextCache();
    let queries = 0;
    const counting: Queryable = {
      query: (sql, params) => {
        queries++;
        return t.db.query(sql, params);
      },
    };
    const current = await version();
    const first = await cache.texts(counting, current, [a, b]);
    expect(first.map((t) => t.toString())).toEqual([
      expect.stringMatching(new RegExp(`^\\{"DeviceId":${a},.*"Replaces":(null|\\d+)$`)),
      expect.stringMatching(new RegExp(`^\\{"DeviceId":${b},`)),
    ]);
    expect(queries).toBe(1);
    expect((await cache.texts(counting, current, [b, a])).map(String)).toEqual([first[1], first[0]].map(String));
    expect(queries).toBe(1);

    // A request whose first query saw another version (a change committed since, say): the texts read
    // now belong to the database's version, so they serve this answer but are not kept for that one.
    await cache.texts(counting, `${current}-other`, [a]);
    await cache.texts(counting, `${current}-other`, [a]);
    expect(queries).toBe(3);
    await expect(cache.texts(counting, current, [-1])).rejects.toThrow('device -1 not found');
  });

  it('reuses the plan of a selection until the master data change', async () => {
    const statements: string[] = [];
    const counting: Queryable = {
      query: (sql, params) => {
        statements.push(sql);
        return t.db.query(sql, params);
      },
    };
    const input = {
      deviceTypeId: DEVICE_TYPE.allocator,
      range: { from: '2026-02-01', till: '2026-02-28' },
      scope: null,
      parents: [building],
      timeZone: 'Europe/Vilnius',
    };
    const caches = new DevicesDataCaches();
    const text = async () => (await getDevicesDataJson(counting, input, caches)).json.toString();
    const first = await text();
    expect(statements).toHaveLength(4); // the plan, the part, the device texts, the accounts
    expect(await text()).toBe(first);
    expect(statements).toHaveLength(6); // the part and the accounts: plan and texts kept

    await t.db.query(`UPDATE device SET description = 'Virtuvė' WHERE id = $1`, [a]);
    const changed = JSON.parse(await text()) as ReadingRow[];
    // The part saw another version: the plan again, the part again, the texts and the accounts.
    expect(statements).toHaveLength(11);
    expect(row(changed, a).DeviceDescription).toBe('Virtuvė');
    expect(changed).toEqual(await computedAfresh());
  });

  it('merges master_change rows in the next master-data change, never in a read', async () => {
    await t.db.query('INSERT INTO master_change SELECT 1 FROM generate_series(1, 150)');
    const v = await version();
    const stored = async () =>
      (
        await t.db.query<{ rows: number; v: string }>(
          'SELECT count(*)::int AS rows, sum(n)::text AS v FROM master_change',
        )
      ).rows[0];
    const before = await stored();
    expect(before!.rows).toBeGreaterThan(150);
    // A read writes nothing (a standby can answer it).
    await getData();
    expect(await stored()).toEqual(before);
    // The next transaction that changes master data merges them into its own step.
    await t.db.query(`UPDATE device SET description = description WHERE id = $1`, [a]);
    expect(await stored()).toEqual({ rows: 1, v: String(BigInt(v) + 1n) });
  });

  it('never makes one master-data writer wait for another', async () => {
    const v = BigInt(await version());
    const other = () => t.db.query(`UPDATE object SET name = name WHERE location_id = $1`, [building]);
    if (dbKind() === 'pglite') {
      // One session: transactions take turns; each still counts once.
      await t.db.transaction((tx) => tx.query(`UPDATE device SET description = description WHERE id = $1`, [a]));
      await other();
    } else {
      // A writes and stays open; B commits meanwhile without waiting for A's locks, then A commits.
      let release!: () => void;
      const open = new Promise<void>((resolve) => {
        release = resolve;
      });
      let wrote!: () => void;
      const written = new Promise<void>((resolve) => {
        wrote = resolve;
      });
      const first = t.db.transaction(async (tx) => {
        await tx.query(`UPDATE device SET description = description WHERE id = $1`, [a]);
        wrote();
        await open;
      });
      await written;
      const waited = await Promise.race([
        other().then(() => false),
        new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 5000)),
      ]);
      release();
      await first;
      expect(waited).toBe(false);
    }
    expect(BigInt(await version())).toBe(v + 2n);
  });
});

import type { ReadingRow } from '@rodmenys/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/db.js';
import { buildTestApp, call } from '../../test/app.js';
import { createTestDb, dbKind } from '../../test/db.js';
import { addReadings, address, createDevice, createPath, createUser } from '../../test/fixtures.js';

// The readings arithmetic of DESIGN.md §4 on hand-built data, every expected
// value worked out by hand. Europe/Vilnius: UTC+2 in winter, UTC+3 in summer;
// clocks go forward on 2026-03-29 03:00 and back on 2026-10-25 04:00.
describe(`GET /api/devices/GetDevicesData arithmetic (${dbKind()})`, () => {
  let db: Db;
  let app: FastifyInstance;
  let token: string;
  let flat1: number;
  let flat2: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    db = await createTestDb();
    app = await buildTestApp(db);
    const building = await createPath(db, address('Vilnius', 'Gedimino pr.', '12'));
    flat1 = (await createPath(db, address('Vilnius', 'Gedimino pr.', '12', '1'), 1)).at(-1)!;
    flat2 = (await createPath(db, address('Vilnius', 'Gedimino pr.', '12', '2'), 2)).at(-1)!;
    token = (await createUser(app, { groupId: 3, rights: [building.at(-1)!] })).token;

    // Allocators in flat 1: rating factors 1.5 and 0.8.
    ids.before = await createDevice(db, { typeId: 1, locationId: flat1, code: 'A-BEFORE', ratingFactor: 1.5 });
    await addReadings(db, ids.before, [
      ['2026-01-30T10:00:00+02:00', 100], // before the period
      ['2026-01-31T23:00:00+02:00', 110, '2026-01-31T22:55:00+02:00'], // latest at or before F: the start
      ['2026-02-10T10:00:00+02:00', 130],
      ['2026-02-28T21:00:00+02:00', 150, '2026-02-28T20:58:00+02:00'], // latest before T: the end
      ['2026-03-01T00:00:00+02:00', 999], // first instant after the period: not counted
    ]);
    ids.inside = await createDevice(db, { typeId: 1, locationId: flat1, code: 'A-INSIDE', ratingFactor: 0.8 });
    await addReadings(db, ids.inside, [
      ['2026-02-05T08:00:00+02:00', 20], // no reading before F: the earliest inside is the start
      ['2026-02-27T08:00:00+02:00', 45],
    ]);
    // Flat 2: a device that never reported and one with a reset (negative difference).
    ids.silent = await createDevice(db, { typeId: 1, locationId: flat2, code: 'A-SILENT', ratingFactor: 1 });
    ids.reset = await createDevice(db, { typeId: 1, locationId: flat2, code: 'A-RESET', ratingFactor: 2 });
    await addReadings(db, ids.reset, [
      ['2026-01-31T12:00:00+02:00', 500],
      ['2026-02-14T12:00:00+02:00', 520],
      ['2026-02-15T12:00:00+02:00', 3],
      ['2026-02-28T12:00:00+02:00', 12.5],
    ]);
    // Water meter with fractional m3 (exact decimal arithmetic).
    ids.water = await createDevice(db, { typeId: 3, locationId: flat1, code: 'W-1' });
    await addReadings(db, ids.water, [
      ['2026-01-31T23:59:59+02:00', '10.1'],
      ['2026-02-28T23:59:59+02:00', '10.3'],
    ]);
    // DST: readings around the spring and autumn changes.
    ids.spring = await createDevice(db, { typeId: 2, locationId: flat2, code: 'E-SPRING' });
    await addReadings(db, ids.spring, [
      ['2026-03-28T22:00:00Z', 1000], // 2026-03-29 00:00 local (+02): start of the 29th
      ['2026-03-29T20:30:00Z', 1010], // 23:30 local (+03) on the 29th: inside
      ['2026-03-29T21:30:00Z', 1020], // 00:30 local on the 30th: outside
    ]);
    ids.autumn = await createDevice(db, { typeId: 2, locationId: flat1, code: 'E-AUTUMN' });
    await addReadings(db, ids.autumn, [
      ['2026-10-24T21:00:00Z', 2000], // 2026-10-25 00:00 local (+03)
      ['2026-10-25T21:30:00Z', 2025], // 23:30 local (+02) on the 25th (a 25-hour day): inside
      ['2026-10-25T22:00:00Z', 2050], // 00:00 local on the 26th: outside
    ]);
  });
  afterAll(async () => {
    await app.close();
    await db.close();
  });

  const get = async (query: string) => {
    const res = await call(app, 'GET', `/api/devices/GetDevicesData?${query}`, { token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return Object.fromEntries((res.body as ReadingRow[]).map((r) => [r.DeviceCode, r]));
  };

  it('takes the latest reading at or before the start, and the latest before the end', async () => {
    const rows = await get('dateFrom=2026-02-01 00:00:00&dateTill=2026-02-28 23:59:59&deviceTypeId=1');
    const r = rows['A-BEFORE']!;
    expect(r.TimeFrom).toBe('2026-01-31T23:00:00+02:00');
    expect(r.TimeTill).toBe('2026-02-28T21:00:00+02:00');
    expect(r.TimePointFrom).toBe('2026-01-31T22:55:00+02:00');
    expect(r.TimePointTill).toBe('2026-02-28T20:58:00+02:00');
    expect([r.UnitsForHCAFrom, r.UnitsForHCATill, r.Difference]).toEqual([110, 150, 40]);
    // Qrad = units x rating factor 1.5
    expect([r.QradFrom, r.QradTill, r.DifferenceQrad]).toEqual([165, 225, 60]);
    expect(r.Flags).toEqual([]);
  });

  it('starts at the first reading inside the period when there is none before it', async () => {
    const r = (await get('dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=1'))['A-INSIDE']!;
    expect(r.TimeFrom).toBe('2026-02-05T08:00:00+02:00');
    expect([r.UnitsForHCAFrom, r.UnitsForHCATill, r.Difference, r.DifferenceQrad]).toEqual([20, 45, 25, 20]);
  });

  it('sums the flat: FlatDifference and FlatDifferenceQrad over the devices of the type in the flat', async () => {
    const rows = await get('dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=1');
    // flat 1: 40 + 25 units; 60 + 20 Qrad
    expect(rows['A-BEFORE']!.FlatDifference).toBe(65);
    expect(rows['A-INSIDE']!.FlatDifference).toBe(65);
    expect(rows['A-INSIDE']!.FlatDifferenceQrad).toBe(80);
    // flat 2: the silent device adds nothing; the reset one is 12.5 - 500
    expect(rows['A-RESET']!.FlatDifference).toBe(-487.5);
    expect(rows['A-SILENT']!.FlatDifference).toBe(-487.5);
  });

  it('lists a device with no reading at all, values empty and flagged', async () => {
    const r = (await get('dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=1'))['A-SILENT']!;
    expect(r.TimeFrom).toBeNull();
    expect(r.TimeTill).toBeNull();
    expect(r.UnitsForHCAFrom).toBeNull();
    expect(r.Difference).toBeNull();
    expect(r.Flags).toEqual(['NO_READING']);
  });

  it('flags a negative difference', async () => {
    const r = (await get('dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=1'))['A-RESET']!;
    expect(r.Difference).toBe(-487.5);
    expect(r.DifferenceQrad).toBe(-975);
    expect(r.Flags).toEqual(['NEGATIVE']);
  });

  it('flags an end reading more than 4 days before the end of the period', async () => {
    // Period to 2026-03-10: A-BEFORE's last counted reading is 2026-03-01 00:00 (value 999)... which is
    // 9 days before the end of 2026-03-10.
    const r = (await get('dateFrom=2026-03-01&dateTill=2026-03-10&deviceTypeId=1'))['A-BEFORE']!;
    expect(r.TimeTill).toBe('2026-03-01T00:00:00+02:00');
    expect(r.Flags).toEqual(['STALE']);
  });

  it('subtracts exact decimals for volume', async () => {
    const r = (await get('dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=3'))['W-1']!;
    expect([r.VolumeFrom, r.VolumeTill]).toEqual([10.1, 10.3]);
    expect(r.Difference).toBe(0.2); // not 0.20000000000000107
    expect(r.UnitsForHCAFrom).toBeUndefined();
  });

  it('takes day bounds in the provider zone on the last Sunday of March (a 23-hour day)', async () => {
    const r = (await get('dateFrom=2026-03-29&dateTill=2026-03-29&deviceTypeId=2'))['E-SPRING']!;
    expect(r.TimeFrom).toBe('2026-03-29T00:00:00+02:00');
    expect(r.TimeTill).toBe('2026-03-29T23:30:00+03:00');
    expect([r.EnergyFrom, r.EnergyTill, r.Difference]).toEqual([1000, 1010, 10]);
    // The next day starts at 2026-03-29T21:00Z: that reading is its start.
    const next = (await get('dateFrom=2026-03-30&dateTill=2026-03-30&deviceTypeId=2'))['E-SPRING']!;
    expect(next.TimeFrom).toBe('2026-03-29T23:30:00+03:00');
  });

  it('takes day bounds in the provider zone on the last Sunday of October (a 25-hour day)', async () => {
    const r = (await get('dateFrom=2026-10-25&dateTill=2026-10-25&deviceTypeId=2'))['E-AUTUMN']!;
    expect(r.TimeFrom).toBe('2026-10-25T00:00:00+03:00');
    expect(r.TimeTill).toBe('2026-10-25T23:30:00+02:00');
    expect(r.Difference).toBe(25);
  });

  it('answers the fields of each computation only', async () => {
    const energy = (await get('dateFrom=2026-10-25&dateTill=2026-10-25&deviceTypeId=2'))['E-AUTUMN']!;
    expect(energy.EnergyFrom).toBe(2000);
    expect(energy.QradFrom).toBeUndefined();
    expect(energy.DataLoadProc).toBe('energy');
    expect(energy.Flat).toBe('1');
    expect(energy.Street).toBe('Gedimino pr.');
  });

  it('narrows to the chosen subtrees, one or several', async () => {
    const one = await get(`dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=1&locationParentId=${flat2}`);
    expect(Object.keys(one).sort()).toEqual(['A-RESET', 'A-SILENT']);
    const both = await get(`dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=1&locationParentId=${flat1},${flat2}`);
    expect(Object.keys(both)).toHaveLength(4);
    const repeated = await get(
      `dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=1&locationParentId=${flat1}&locationParentId=${flat2}`,
    );
    expect(Object.keys(repeated)).toHaveLength(4);
  });

  describe('devices that come and go', () => {
    it('shows a device removed inside the period up to its removal, not flagged silent', async () => {
      const removed = await createDevice(db, {
        typeId: 4,
        locationId: flat1,
        code: 'HW-OLD',
        installedAt: '2025-01-01T00:00:00+02:00',
        removedAt: '2026-02-10T12:00:00+02:00',
      });
      await addReadings(db, removed, [
        ['2026-01-31T12:00:00+02:00', 50],
        ['2026-02-10T12:00:00+02:00', 52.5], // final reading at removal
        ['2026-02-20T12:00:00+02:00', 99], // a late telegram after removal: not counted
      ]);
      const successor = await createDevice(db, {
        typeId: 4,
        locationId: flat1,
        code: 'HW-NEW',
        installedAt: '2026-02-10T12:00:00+02:00',
      });
      await addReadings(db, successor, [
        ['2026-02-10T12:00:00+02:00', 0], // initial reading
        ['2026-02-28T12:00:00+02:00', 1.25],
      ]);
      await db.query('UPDATE device SET replaced_by = $1 WHERE id = $2', [successor, removed]);
      const rows = await get('dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=4');
      expect(rows['HW-OLD']!.Difference).toBe(2.5);
      expect(rows['HW-OLD']!.Flags).toEqual([]);
      expect(rows['HW-OLD']!.ReplacedBy).toBe(successor);
      expect(rows['HW-NEW']!.Difference).toBe(1.25);
      expect(rows['HW-NEW']!.Replaces).toBe(removed);
      expect(rows['HW-NEW']!.FlatDifference).toBe(3.75);
      // Before the replacement only the old device; after it only the new one.
      expect(Object.keys(await get('dateFrom=2026-01-01&dateTill=2026-01-31&deviceTypeId=4'))).toEqual(['HW-OLD']);
      expect(Object.keys(await get('dateFrom=2026-03-01&dateTill=2026-03-31&deviceTypeId=4'))).toEqual(['HW-NEW']);
    });
  });

  describe('bad input', () => {
    const bad = async (query: string, status = 400) => {
      const res = await call(app, 'GET', `/api/devices/GetDevicesData?${query}`, { token });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(typeof res.body.message).toBe('string');
      return res.body;
    };
    it('refuses impossible and absurd dates', async () => {
      expect((await bad('dateFrom=2026-02-30&dateTill=2026-03-01&deviceTypeId=1')).errors[0].field).toBe('dateFrom');
      await bad('dateFrom=2026-13-01&dateTill=2026-13-02&deviceTypeId=1');
      await bad('dateFrom=0001-01-01&dateTill=2026-01-01&deviceTypeId=1');
      await bad('dateFrom=yesterday&dateTill=2026-01-01&deviceTypeId=1');
      await bad('dateFrom=1990-01-01&dateTill=2099-01-01&deviceTypeId=1');
    });
    it('refuses dateFrom after dateTill', async () => {
      expect((await bad('dateFrom=2026-03-01&dateTill=2026-02-01&deviceTypeId=1')).message).toMatch(/after/);
    });
    it('refuses missing and wrong-typed parameters', async () => {
      await bad('dateTill=2026-02-01&deviceTypeId=1');
      await bad('dateFrom=2026-02-01&dateTill=2026-02-01&deviceTypeId=abc');
      await bad('dateFrom=2026-02-01&dateTill=2026-02-01&deviceTypeId=1&locationParentId=1;DROP');
      await bad('dateFrom=2026-02-01&dateTill=2026-02-01&deviceTypeId=1&DataLoadProc=nonsense');
    });
    it('answers an unknown device type with 400 and an unknown location with 404', async () => {
      await bad('dateFrom=2026-02-01&dateTill=2026-02-01&deviceTypeId=99');
      await bad('dateFrom=2026-02-01&dateTill=2026-02-01&deviceTypeId=1&locationParentId=999999', 404);
    });
  });
});

import * as contract from '@rodmenys/contract';
import {
  DEVICE_TYPE,
  GROUP,
  getDevicesData as getDevicesDataEndpoint,
  type ReadingRow,
  readingFlags,
} from '@rodmenys/contract';
import { Ajv } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../../../test/app.js';
import { dbKind, useDb } from '../../../test/db.js';
import {
  type DeviceOverrides,
  makeBuilding,
  makeDevice,
  makeFlat,
  makeReadings,
  makeSignedIn,
} from '../../../test/factories.js';
import { DevicesDataCaches, getDevicesDataJson, splitBuildings } from './index.js';

// The readings arithmetic of docs/domain.md §5 on hand-built data, every expected
// value worked out by hand. Europe/Vilnius: UTC+2 in winter, UTC+3 in summer;
// clocks go forward on 2026-03-29 03:00 and back on 2026-10-25 04:00.
describe(`GET /api/devices/GetDevicesData arithmetic (${dbKind()})`, () => {
  const t = useApp();
  let token: string;
  let flat1: number;
  let flat2: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    const building = await makeBuilding(t.db, { city: 'Vilnius', street: 'Gedimino pr.', number: '12' });
    flat1 = (await makeFlat(t.db, building, { name: '1', order: 1 })).id;
    flat2 = (await makeFlat(t.db, building, { name: '2', order: 2 })).id;
    token = (await makeSignedIn(t.app, { groupId: GROUP.user, rights: [building] })).token;

    // Allocators in flat 1: rating factors 1.5 and 0.8.
    ids.before = await makeDevice(t.db, flat1, { typeId: DEVICE_TYPE.allocator, code: 'A-BEFORE', ratingFactor: 1.5 });
    await makeReadings(t.db, ids.before, [
      ['2026-01-30T10:00:00+02:00', 100], // before the period
      ['2026-01-31T23:00:00+02:00', 110, '2026-01-31T22:55:00+02:00'], // latest at or before F: the start
      ['2026-02-10T10:00:00+02:00', 130],
      ['2026-02-28T21:00:00+02:00', 150, '2026-02-28T20:58:00+02:00'],
      // Exactly T (00:00 of the day after the period): the state at the boundary, the period's end.
      ['2026-03-01T00:00:00+02:00', 155, '2026-02-28T23:58:00+02:00'],
      ['2026-03-01T00:00:01+02:00', 999], // after T: not counted
    ]);
    ids.inside = await makeDevice(t.db, flat1, { typeId: DEVICE_TYPE.allocator, code: 'A-INSIDE', ratingFactor: 0.8 });
    await makeReadings(t.db, ids.inside, [
      ['2026-02-05T08:00:00+02:00', 20], // no reading before F: the earliest inside is the start
      ['2026-02-27T08:00:00+02:00', 45],
    ]);
    // Flat 2: a device that never reported and one with a reset (negative difference).
    ids.silent = await makeDevice(t.db, flat2, { typeId: DEVICE_TYPE.allocator, code: 'A-SILENT', ratingFactor: 1 });
    ids.reset = await makeDevice(t.db, flat2, { typeId: DEVICE_TYPE.allocator, code: 'A-RESET', ratingFactor: 2 });
    await makeReadings(t.db, ids.reset, [
      ['2026-01-31T12:00:00+02:00', 500],
      ['2026-02-14T12:00:00+02:00', 520],
      ['2026-02-15T12:00:00+02:00', 3],
      ['2026-02-28T12:00:00+02:00', 12.5],
    ]);
    // Water meter with fractional m3 (exact decimal arithmetic).
    ids.water = await makeDevice(t.db, flat1, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'W-1' });
    await makeReadings(t.db, ids.water, [
      ['2026-01-31T23:59:59+02:00', '10.1'],
      ['2026-02-28T23:59:59+02:00', '10.3'],
    ]);
    // DST: readings around the spring and autumn changes.
    ids.spring = await makeDevice(t.db, flat2, { typeId: DEVICE_TYPE.heatMeter, code: 'E-SPRING' });
    await makeReadings(t.db, ids.spring, [
      ['2026-03-28T22:00:00Z', 1000], // 2026-03-29 00:00 local (+02): start of the 29th
      ['2026-03-29T20:30:00Z', 1010], // 23:30 local (+03) on the 29th: inside
      ['2026-03-29T21:30:00Z', 1020], // 00:30 local on the 30th: outside
    ]);
    ids.autumn = await makeDevice(t.db, flat1, { typeId: DEVICE_TYPE.heatMeter, code: 'E-AUTUMN' });
    await makeReadings(t.db, ids.autumn, [
      ['2026-10-24T21:00:00Z', 2000], // 2026-10-25 00:00 local (+03)
      ['2026-10-25T21:30:00Z', 2025], // 23:30 local (+02) on the 25th (a 25-hour day): inside
      ['2026-10-25T22:00:00Z', 2050], // 00:00 local on the 26th: the boundary, the 25th's end
      ['2026-10-25T22:30:00Z', 2060], // 00:30 local on the 26th: outside
    ]);
  });

  const get = async (query: string) => {
    const res = await inject(t.app, contract.getDevicesData, { query, token });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return Object.fromEntries((res.body as ReadingRow[]).map((r) => [r.DeviceCode, r]));
  };

  it('takes the latest reading at or before the start, and the latest at or before the end', async () => {
    const rows = await get(
      `dateFrom=2026-02-01 00:00:00&dateTill=2026-02-28 23:59:59&deviceTypeId=${DEVICE_TYPE.allocator}`,
    );
    const r = rows['A-BEFORE']!;
    expect(r.TimeFrom).toBe('2026-01-31T23:00:00+02:00');
    expect(r.TimeTill).toBe('2026-03-01T00:00:00+02:00');
    expect(r.TimePointFrom).toBe('2026-01-31T22:55:00+02:00');
    expect(r.TimePointTill).toBe('2026-02-28T23:58:00+02:00');
    expect([r.UnitsForHCAFrom, r.UnitsForHCATill, r.Difference]).toEqual([110, 155, 45]);
    // Qrad = units x rating factor 1.5
    expect([r.QradFrom, r.QradTill, r.DifferenceQrad]).toEqual([165, 232.5, 67.5]);
    expect(r.Flags).toEqual([]);
  });

  it('starts at the first reading inside the period when there is none before it', async () => {
    const r = (await get(`dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=${DEVICE_TYPE.allocator}`))['A-INSIDE']!;
    expect(r.TimeFrom).toBe('2026-02-05T08:00:00+02:00');
    expect([r.UnitsForHCAFrom, r.UnitsForHCATill, r.Difference, r.DifferenceQrad]).toEqual([20, 45, 25, 20]);
  });

  it('sums the flat: FlatDifference and FlatDifferenceQrad over the devices of the type in the flat', async () => {
    const rows = await get(`dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=${DEVICE_TYPE.allocator}`);
    // flat 1: 45 + 25 units; 67.5 + 20 Qrad
    expect(rows['A-BEFORE']!.FlatDifference).toBe(70);
    expect(rows['A-INSIDE']!.FlatDifference).toBe(70);
    expect(rows['A-INSIDE']!.FlatDifferenceQrad).toBe(87.5);
    // flat 2: the silent device adds nothing; the reset one is 12.5 - 500
    expect(rows['A-RESET']!.FlatDifference).toBe(-487.5);
    expect(rows['A-SILENT']!.FlatDifference).toBe(-487.5);
  });

  it('lists a device with no reading at all, values empty and flagged', async () => {
    const r = (await get(`dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=${DEVICE_TYPE.allocator}`))['A-SILENT']!;
    expect(r.TimeFrom).toBeNull();
    expect(r.TimeTill).toBeNull();
    expect(r.UnitsForHCAFrom).toBeNull();
    expect(r.Difference).toBeNull();
    expect(r.Flags).toEqual(['NO_READING']);
  });

  it('flags a negative difference', async () => {
    const r = (await get(`dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=${DEVICE_TYPE.allocator}`))['A-RESET']!;
    expect(r.Difference).toBe(-487.5);
    expect(r.DifferenceQrad).toBe(-975);
    expect(r.Flags).toEqual(['NEGATIVE']);
  });

  it('flags an end reading more than 4 days before the end of the period', async () => {
    // Period to 2026-03-10: A-BEFORE's last reading is 2026-03-01 00:00:01 (value 999)... which is
    // more than 9 days before the end of 2026-03-10.
    const r = (await get(`dateFrom=2026-03-01&dateTill=2026-03-10&deviceTypeId=${DEVICE_TYPE.allocator}`))['A-BEFORE']!;
    expect(r.TimeTill).toBe('2026-03-01T00:00:01+02:00');
    expect(r.Flags).toEqual(['STALE']);
  });

  it('subtracts exact decimals for volume', async () => {
    const r = (await get(`dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=${DEVICE_TYPE.coldWaterMeter}`))['W-1']!;
    expect([r.VolumeFrom, r.VolumeTill]).toEqual([10.1, 10.3]);
    expect(r.Difference).toBe(0.2); // not 0.20000000000000107
    expect(r.UnitsForHCAFrom).toBeUndefined();
  });

  it('takes day bounds in the provider zone on the last Sunday of March (a 23-hour day)', async () => {
    const r = (await get(`dateFrom=2026-03-29&dateTill=2026-03-29&deviceTypeId=${DEVICE_TYPE.heatMeter}`))['E-SPRING']!;
    expect(r.TimeFrom).toBe('2026-03-29T00:00:00+02:00');
    expect(r.TimeTill).toBe('2026-03-29T23:30:00+03:00');
    expect([r.EnergyFrom, r.EnergyTill, r.Difference]).toEqual([1000, 1010, 10]);
    // The next day starts at 2026-03-29T21:00Z: that reading is its start.
    const next = (await get(`dateFrom=2026-03-30&dateTill=2026-03-30&deviceTypeId=${DEVICE_TYPE.heatMeter}`))[
      'E-SPRING'
    ]!;
    expect(next.TimeFrom).toBe('2026-03-29T23:30:00+03:00');
  });

  it('takes day bounds in the provider zone on the last Sunday of October (a 25-hour day)', async () => {
    const r = (await get(`dateFrom=2026-10-25&dateTill=2026-10-25&deviceTypeId=${DEVICE_TYPE.heatMeter}`))['E-AUTUMN']!;
    expect(r.TimeFrom).toBe('2026-10-25T00:00:00+03:00');
    expect(r.TimeTill).toBe('2026-10-26T00:00:00+02:00');
    expect(r.Difference).toBe(50);
    // And the start of the 26th: the two days chain.
    const next = (await get(`dateFrom=2026-10-26&dateTill=2026-10-26&deviceTypeId=${DEVICE_TYPE.heatMeter}`))[
      'E-AUTUMN'
    ]!;
    expect([next.TimeFrom, next.Difference]).toEqual(['2026-10-26T00:00:00+02:00', 10]);
  });

  it('answers the fields of each computation only', async () => {
    const energy = (await get(`dateFrom=2026-10-25&dateTill=2026-10-25&deviceTypeId=${DEVICE_TYPE.heatMeter}`))[
      'E-AUTUMN'
    ]!;
    expect(energy.EnergyFrom).toBe(2000);
    expect(energy.QradFrom).toBeUndefined();
    expect(energy.DataLoadProc).toBe('energy');
    expect(energy.Flat).toBe('1');
    expect(energy.Street).toBe('Gedimino pr.');
  });

  it('narrows to the chosen subtrees, one or several', async () => {
    const one = await get(
      `dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=${DEVICE_TYPE.allocator}&locationParentId=${flat2}`,
    );
    expect(Object.keys(one).sort()).toEqual(['A-RESET', 'A-SILENT']);
    const both = await get(
      `dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=${DEVICE_TYPE.allocator}&locationParentId=${flat1},${flat2}`,
    );
    expect(Object.keys(both)).toHaveLength(4);
    const repeated = await get(
      `dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=${DEVICE_TYPE.allocator}&locationParentId=${flat1}&locationParentId=${flat2}`,
    );
    expect(Object.keys(repeated)).toHaveLength(4);
  });

  describe('devices that come and go', () => {
    it('shows a device removed inside the period up to its removal, not flagged silent', async () => {
      const removed = await makeDevice(t.db, flat1, {
        typeId: DEVICE_TYPE.hotWaterMeter,
        code: 'HW-OLD',
        installedAt: '2025-01-01T00:00:00+02:00',
        removedAt: '2026-02-10T12:00:00+02:00',
      });
      await makeReadings(t.db, removed, [
        ['2026-01-31T12:00:00+02:00', 50],
        ['2026-02-10T12:00:00+02:00', 52.5], // final reading at removal
        ['2026-02-20T12:00:00+02:00', 99], // a late telegram after removal: not counted
      ]);
      const successor = await makeDevice(t.db, flat1, {
        typeId: DEVICE_TYPE.hotWaterMeter,
        code: 'HW-NEW',
        installedAt: '2026-02-10T12:00:00+02:00',
      });
      await makeReadings(t.db, successor, [
        ['2026-02-10T12:00:00+02:00', 0], // initial reading
        ['2026-02-28T12:00:00+02:00', 1.25],
      ]);
      await t.db.query('UPDATE device SET replaced_by = $1 WHERE id = $2', [successor, removed]);
      const rows = await get(`dateFrom=2026-02-01&dateTill=2026-02-28&deviceTypeId=${DEVICE_TYPE.hotWaterMeter}`);
      expect(rows['HW-OLD']!.Difference).toBe(2.5);
      expect(rows['HW-OLD']!.Flags).toEqual([]);
      expect(rows['HW-OLD']!.ReplacedBy).toBe(successor);
      expect(rows['HW-NEW']!.Difference).toBe(1.25);
      expect(rows['HW-NEW']!.Replaces).toBe(removed);
      expect(rows['HW-NEW']!.FlatDifference).toBe(3.75);
      // Before the replacement only the old device; after it only the new one.
      expect(
        Object.keys(await get(`dateFrom=2026-01-01&dateTill=2026-01-31&deviceTypeId=${DEVICE_TYPE.hotWaterMeter}`)),
      ).toEqual(['HW-OLD']);
      expect(
        Object.keys(await get(`dateFrom=2026-03-01&dateTill=2026-03-31&deviceTypeId=${DEVICE_TYPE.hotWaterMeter}`)),
      ).toEqual(['HW-NEW']);
    });
  });

  describe('bad input', () => {
    const bad = async (query: string, status = 400) => {
      const res = await inject(t.app, contract.getDevicesData, { query, token });
      expect(res.status, JSON.stringify(res.body)).toBe(status);
      expect(typeof res.error.message).toBe('string');
      return res.error;
    };
    it('refuses impossible and absurd dates', async () => {
      expect(
        (await bad(`dateFrom=2026-02-30&dateTill=2026-03-01&deviceTypeId=${DEVICE_TYPE.allocator}`)).errors![0]!.field,
      ).toBe('dateFrom');
      await bad(`dateFrom=2026-13-01&dateTill=2026-13-02&deviceTypeId=${DEVICE_TYPE.allocator}`);
      await bad(`dateFrom=0001-01-01&dateTill=2026-01-01&deviceTypeId=${DEVICE_TYPE.allocator}`);
      await bad(`dateFrom=yesterday&dateTill=2026-01-01&deviceTypeId=${DEVICE_TYPE.allocator}`);
      await bad(`dateFrom=1990-01-01&dateTill=2099-01-01&deviceTypeId=${DEVICE_TYPE.allocator}`);
    });
    it('refuses dateFrom after dateTill', async () => {
      expect(
        (await bad(`dateFrom=2026-03-01&dateTill=2026-02-01&deviceTypeId=${DEVICE_TYPE.allocator}`)).message,
      ).toMatch(/after/);
    });
    it('refuses missing and wrong-typed parameters', async () => {
      await bad(`dateTill=2026-02-01&deviceTypeId=${DEVICE_TYPE.allocator}`);
      await bad('dateFrom=2026-02-01&dateTill=2026-02-01&deviceTypeId=abc');
      await bad(
        `dateFrom=2026-02-01&dateTill=2026-02-01&deviceTypeId=${DEVICE_TYPE.allocator}&locationParentId=1;DROP`,
      );
      await bad(`dateFrom=2026-02-01&dateTill=2026-02-01&deviceTypeId=${DEVICE_TYPE.allocator}&DataLoadProc=nonsense`);
    });
    it('answers an unknown device type with 400 and an unknown location with 404', async () => {
      await bad('dateFrom=2026-02-01&dateTill=2026-02-01&deviceTypeId=99');
      await bad(
        `dateFrom=2026-02-01&dateTill=2026-02-01&deviceTypeId=${DEVICE_TYPE.allocator}&locationParentId=999999`,
        404,
      );
    });
  });
});

// The JSON is written by SQL and sent without the schema serialiser: it must
// still be what the contract says, and its flags what `readingFlags` says.
describe(`GetDevicesData JSON written in SQL (${dbKind()})`, () => {
  const t = useDb();
  let flat: number;
  const period = { from: '2026-02-01', till: '2026-02-28' };
  /** The period's end T (1 March 00:00, whose reading ends it), as `readingFlags` takes it. */
  const periodEnd = new Date('2026-03-01T00:00:00+02:00');
  const input = (deviceTypeId: number, now: Date, parts?: number) => ({
    deviceTypeId,
    range: period,
    scope: null,
    parents: [flat],
    timeZone: 'Europe/Vilnius',
    now,
    parts,
  });
  const AFTER = new Date('2026-04-01T00:00:00Z');
  const caches = new DevicesDataCaches();

  beforeAll(async () => {
    const building = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al. "Centras"', number: '7' });
    flat = (await makeFlat(t.db, building, { name: '3', order: 1 })).id;
    const device = (code: string, more: DeviceOverrides = {}) =>
      makeDevice(t.db, flat, { typeId: DEVICE_TYPE.allocator, code, ratingFactor: 1.25, ...more });
    const start: [string, number] = ['2026-01-31T20:00:00+02:00', 100];
    // Allocators: every case of the flags, and the edges of "more than 4 days before the end".
    await device('NONE');
    await makeReadings(t.db, await device('OK'), [start, ['2026-02-28T20:00:00+02:00', 120]]);
    // The period ends at T = 1 March 00:00 (a reading then still ends it): 96 hours before is 25 February 00:00.
    await makeReadings(t.db, await device('EDGE-96H'), [start, ['2026-02-25T00:00:00+02:00', 110]]);
    await makeReadings(t.db, await device('EDGE-96H-1S'), [start, ['2026-02-24T23:59:59+02:00', 110]]);
    // Shown as 23:59:59, and compared as shown.
    await makeReadings(t.db, await device('EDGE-FRACTION'), [start, ['2026-02-24T23:59:59.900+02:00', 110]]);
    // Compared at whole seconds with a `now` that has milliseconds: 12:00:00(.700) < 12:00:00.500.
    await makeReadings(t.db, await device('NOW-FRACTION'), [start, ['2026-02-16T12:00:00.700+02:00', 110]]);
    await makeReadings(t.db, await device('NEGATIVE'), [start, ['2026-02-28T12:00:00+02:00', 3.5]]);
    await makeReadings(t.db, await device('STALE-NEGATIVE'), [start, ['2026-02-03T12:00:00+02:00', 7]]);
    await makeReadings(t.db, await device('ONLY-INSIDE'), [['2026-02-20T10:00:00+02:00', 5]]);
    await makeReadings(t.db, await device('NO-FACTOR', { ratingFactor: undefined }), [
      start,
      ['2026-02-28T12:00:00+02:00', 101],
    ]);
    // Removed inside the period: measured against the removal (at whole seconds, as shown).
    const removed = (code: string, removedAt: string) => device(code, { removedAt });
    await makeReadings(t.db, await removed('REMOVED-96H', '2026-02-10T12:00:00+02:00'), [
      start,
      ['2026-02-06T12:00:00+02:00', 130],
    ]);
    await makeReadings(t.db, await removed('REMOVED-96H-1S', '2026-02-10T12:00:00+02:00'), [
      start,
      ['2026-02-06T11:59:59+02:00', 130],
    ]);
    await makeReadings(t.db, await removed('REMOVED-FRACTION', '2026-02-10T12:00:00.700+02:00'), [
      start,
      ['2026-02-06T12:00:00.300+02:00', 130],
    ]);
    await removed('REMOVED-SILENT', '2026-02-15T00:00:00+02:00');
    // A heat meter and a water meter (other value fields), with telegram status.
    const heat = await makeDevice(t.db, flat, {
      typeId: DEVICE_TYPE.heatMeter,
      code: 'HEAT',
      description: 'Šiluma\n"1"',
    });
    await makeReadings(t.db, heat, [start, ['2026-02-27T00:00:00+02:00', 250.125]]);
    await t.db.query(
      `INSERT INTO device_status (device_id, last_seen, telegram_ts, flags, set_date, set_value)
       VALUES ($1, '2026-03-02T00:00:00+02:00', '2026-03-02T00:00:00+02:00', '{POWER_LOW,"TAMPER \\"x\\""}', '2026-01-31', 99.5)
       ON CONFLICT (device_id) DO UPDATE SET last_seen = excluded.last_seen, telegram_ts = excluded.telegram_ts,
         flags = excluded.flags, set_date = excluded.set_date, set_value = excluded.set_value`,
      [heat],
    );
    const water = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'WATER' });
    await makeReadings(t.db, water, [
      ['2026-01-31T23:00:00+02:00', '10.1'],
      ['2026-02-28T23:00:00+02:00', '10.3'],
    ]);
  });

  const rowsOf = async (deviceTypeId: number, now: Date, parts?: number) => {
    const { json } = await getDevicesDataJson(t.db, input(deviceTypeId, now, parts), caches);
    return JSON.parse(json.toString()) as ReadingRow[];
  };

  it('validates against the contract for every computation', async () => {
    // Every field declared (additional ones would be dropped by the serialiser this text skips).
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addFormat('date-time', /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
    const schema = {
      ...getDevicesDataEndpoint.response,
      items: { ...getDevicesDataEndpoint.response.items, additionalProperties: false },
    };
    const valid = ajv.compile(schema);
    for (const typeId of [1, 2, 3]) {
      const rows = await rowsOf(typeId, AFTER);
      expect(rows.length).toBeGreaterThan(0);
      valid(rows);
      expect(valid.errors ?? []).toEqual([]);
      // The offset is the provider zone's, as the API promises.
      expect(
        rows.flatMap((r) => [r.TimeFrom, r.TimeTill]).filter((t) => t !== null && !/[+-]0[23]:00$/.test(t)),
      ).toEqual([]);
    }
    const heat = (await rowsOf(2, AFTER))[0]!;
    expect(heat.DeviceDescription).toBe('Šiluma\n"1"');
    expect(heat.Street).toBe('Laisvės al. "Centras"');
    expect(heat.StatusFlags).toEqual(['POWER_LOW', 'TAMPER "x"']);
    expect([heat.SetDate, heat.SetValue, heat.LastSeen]).toEqual(['2026-01-31', 99.5, '2026-03-02T00:00:00+02:00']);
    expect([heat.EnergyFrom, heat.EnergyTill, heat.Difference]).toEqual([100, 250.125, 150.125]);
    expect(Object.keys(heat)).not.toContain('VolumeFrom');
  });

  it('answers the values a float8 would: exact decimals, products and flat sums', async () => {
    const rows = Object.fromEntries((await rowsOf(1, AFTER)).map((r) => [r.DeviceCode, r]));
    const ok = rows.OK!;
    expect([ok.UnitsForHCAFrom, ok.UnitsForHCATill, ok.QradFrom, ok.QradTill, ok.DifferenceQrad]).toEqual([
      100, 120, 125, 150, 25,
    ]);
    expect(rows['NO-FACTOR']!.RatingFactor).toBeNull();
    expect(rows['NO-FACTOR']!.QradTill).toBeNull();
    expect(rows['NO-FACTOR']!.UnitsForHCATill).toBe(101);
    const sum = Object.values(rows).reduce((n, r) => n + (r.Difference ?? 0), 0);
    expect(ok.FlatDifference).toBeCloseTo(sum, 9);
    const water = (await rowsOf(3, AFTER))[0]!;
    expect([water.VolumeFrom, water.VolumeTill, water.Difference]).toEqual([10.1, 10.3, 0.2]);
  });

  it('flags every row as readingFlags does, whatever now is', async () => {
    const nows = [
      AFTER,
      new Date('2026-02-20T12:00:00+02:00'),
      new Date('2026-02-20T12:00:00.500+02:00'),
      new Date('2026-02-24T23:59:59+02:00'),
      new Date('2026-03-01T00:00:00+02:00'),
    ];
    const seen = new Set<string>();
    for (const now of nows) {
      for (const typeId of [1, 2, 3]) {
        for (const row of await rowsOf(typeId, now)) {
          const expected = readingFlags(row, periodEnd, now);
          expect(row.Flags, `${row.DeviceCode} at ${now.toISOString()}`).toEqual(expected);
          seen.add(`${row.DeviceCode}@${now === AFTER ? 'after' : now.toISOString()}: ${expected.join(' ')}`);
        }
      }
    }
    // The cases are really there (the comparison is not vacuous).
    expect(seen).toContain('NONE@after: NO_READING');
    expect(seen).toContain('EDGE-96H@after: ');
    expect(seen).toContain('EDGE-96H-1S@after: STALE');
    expect(seen).toContain('EDGE-FRACTION@after: STALE');
    expect(seen).toContain('NEGATIVE@after: NEGATIVE');
    expect(seen).toContain('STALE-NEGATIVE@after: STALE NEGATIVE');
    expect(seen).toContain('REMOVED-96H@after: ');
    expect(seen).toContain('REMOVED-96H-1S@after: STALE');
    expect(seen).toContain('REMOVED-FRACTION@after: ');
    expect(seen).toContain('REMOVED-SILENT@after: NO_READING');
    // Capped at now: the same reading is fresh at 2026-02-20 and stale after the period.
    expect(seen).toContain('ONLY-INSIDE@2026-02-20T10:00:00.000Z: ');
    expect(seen).toContain('ONLY-INSIDE@after: STALE');
    expect(seen).toContain('NOW-FRACTION@2026-02-20T10:00:00.000Z: ');
    expect(seen).toContain('NOW-FRACTION@2026-02-20T10:00:00.500Z: STALE');
  });

  it('gives the same answer computed in parts', async () => {
    const whole = await getDevicesDataJson(t.db, { ...input(1, AFTER), parents: null }, caches);
    for (const parts of [2, 3, 20]) {
      expect(
        (await getDevicesDataJson(t.db, { ...input(1, AFTER, parts), parents: null }, caches)).json.toString(),
      ).toBe(whole.json.toString());
    }
  });
});

describe('splitBuildings', () => {
  it('keeps the order and balances the device counts', () => {
    const buildings: Array<[number, number]> = [
      [5, 10],
      [3, 10],
      [9, 30],
      [1, 10],
      [0, 40],
    ];
    expect(splitBuildings(buildings, 1)).toEqual([[5, 3, 9, 1, 0]]);
    expect(splitBuildings(buildings, 2)).toEqual([
      [5, 3, 9],
      [1, 0],
    ]);
    expect(splitBuildings(buildings, 10).flat()).toEqual([5, 3, 9, 1, 0]);
    expect(splitBuildings([], 2)).toEqual([[]]);
  });
});

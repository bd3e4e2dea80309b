import { readFileSync } from 'node:fs';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, type DeviceTypeId, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../../test/app.js';
import { dbKind } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn } from '../../test/factories.js';
import { ingestTelegrams } from '../ingest/ingest-telegrams.js';
import { cityIdOf } from '../sql.js';
import { computeMonthEnds } from './month-ends.js';
import { refreshMonthEnds } from './refresh-month-ends.js';

const TOLERANCE = { 'monthEnd.toleranceDays': 2 };

describe(`month-end values (${dbKind()})`, () => {
  const t = useApp();
  let building: number;
  let flat: number;
  let n = 0;
  const device = async (typeId: DeviceTypeId = DEVICE_TYPE.coldWaterMeter, locationId = flat) =>
    makeDevice(t.db, locationId, { typeId, code: `ME-${++n}` });
  const monthEnd = async (deviceId: number, month: string) => {
    const { rows } = await t.db.query<{
      value: number;
      source: string;
      method: string | null;
      reading_ts: string | null;
      previous_value: number | null;
      previous_source: string | null;
    }>(
      `SELECT value::float8 AS value, source, method, iso(reading_ts) AS reading_ts,
              previous_value::float8 AS previous_value, previous_source
         FROM month_end WHERE device_id = $1 AND month = $2::date`,
      [deviceId, `${month}-01`],
    );
    return rows[0];
  };

  beforeAll(async () => {
    building = (await makeBuilding(t.db, { city: 'Vilnius', street: 'Ąžuolyno g.', number: '7' })).id;
    flat = (
      await makeFlat(t.db, await makeBuilding(t.db, { city: 'Vilnius', street: 'Ąžuolyno g.', number: '7' }), {
        name: '1',
        order: 1,
      })
    ).id;
  });

  describe('computeMonthEnds: each source in order', () => {
    it('measured: the latest reading before the month end, if at most the tolerance old', async () => {
      const fresh = await device();
      await makeReadings(t.db, fresh, [
        ['2026-01-31T20:00:00+02:00', 10],
        ['2026-02-01T06:00:00+02:00', 11],
      ]);
      const old = await device();
      await makeReadings(t.db, old, [
        ['2026-01-29T23:00:00+02:00', 5],
        ['2026-02-03T00:00:00+02:00', 7],
      ]);
      await computeMonthEnds(t.db, '2026-01-01', [fresh, old], TOLERANCE);
      expect(await monthEnd(fresh, '2026-01')).toMatchObject({
        value: 10,
        source: 'measured',
        reading_ts: '2026-01-31T20:00:00+02:00',
      });
      // 2 days 1 hour old: not measured; interpolated between the two readings instead.
      expect((await monthEnd(old, '2026-01'))?.source).toBe('interpolated');
    });

    it('takes the month end in the provider zone across the DST change (March ends at 00:00+03:00)', async () => {
      const d = await device();
      await makeReadings(t.db, d, [
        ['2026-03-31T23:30:00+03:00', 5],
        // 2026-03-31 21:30 UTC: still March in UTC, already April in Vilnius.
        ['2026-04-01T00:30:00+03:00', 6],
      ]);
      await computeMonthEnds(t.db, '2026-03-01', [d], TOLERANCE);
      expect(await monthEnd(d, '2026-03')).toMatchObject({ value: 5, source: 'measured' });
    });

    it("memory: the meter's own value for the month's last day (or the next month's first) before interpolation", async () => {
      const a = await device();
      const b = await device();
      for (const id of [a, b]) {
        await makeReadings(t.db, id, [
          ['2026-01-10T00:00:00+02:00', 100],
          ['2026-02-20T00:00:00+02:00', 300],
        ]);
      }
      await t.db.query(
        `INSERT INTO device_memory (device_id, day, value, ts) VALUES
           ($1, '2026-01-31', 150, '2026-02-20T00:00:00+02:00'), ($2, '2026-02-01', 151, '2026-02-20T00:00:00+02:00')`,
        [a, b],
      );
      // A reading within the tolerance comes before the meter's memory.
      const c = await device();
      await makeReadings(t.db, c, [
        ['2026-01-31T20:00:00+02:00', 149],
        ['2026-02-20T00:00:00+02:00', 300],
      ]);
      await t.db.query(
        "INSERT INTO device_memory (device_id, day, value, ts) VALUES ($1, '2026-01-31', 150, '2026-02-20T00:00:00+02:00')",
        [c],
      );
      await computeMonthEnds(t.db, '2026-01-01', [a, b, c], TOLERANCE);
      expect(await monthEnd(a, '2026-01')).toMatchObject({ value: 150, source: 'memory' });
      expect(await monthEnd(b, '2026-01')).toMatchObject({ value: 151, source: 'memory' });
      expect(await monthEnd(c, '2026-01')).toMatchObject({ value: 149, source: 'measured' });
    });

    it("interpolated: by time, and for allocators by the city's monthly heating degree-days spread over their days", async () => {
      const water = await device(3);
      const hca = await device(1);
      for (const id of [water, hca]) {
        await makeReadings(t.db, id, [
          ['2026-01-20T00:00:00+02:00', 100],
          ['2026-02-09T00:00:00+02:00', 300],
        ]);
      }
      // 12 of the 20 days lie before the month end.
      await computeMonthEnds(t.db, '2026-01-01', [water], TOLERANCE);
      expect(await monthEnd(water, '2026-01')).toMatchObject({ value: 220, source: 'interpolated', method: 'time' });
      // The flat's city has 31 degree-days in January and 84 in February: spread evenly, 1 and 3 a day,
      // so 12 of 12 + 27 fall before the month end.
      await t.db.query(
        `INSERT INTO degree_days (city_id, month, value)
         SELECT ${cityIdOf('l')}, m.month::date, m.value FROM location l,
                (VALUES ('2026-01-01', 31), ('2026-02-01', 84)) m (month, value)
          WHERE l.id = $1`,
        [flat],
      );
      await computeMonthEnds(t.db, '2026-01-01', [hca], TOLERANCE);
      expect(await monthEnd(hca, '2026-01')).toMatchObject({
        value: 161.538,
        source: 'interpolated',
        method: 'degree_days',
      });
    });

    it("estimated: the building's average consumption of the type, per m² where flat areas are known", async () => {
      const flat2 = (
        await makeFlat(t.db, await makeBuilding(t.db, { city: 'Vilnius', street: 'Ąžuolyno g.', number: '7' }), {
          name: '2',
          order: 2,
        })
      ).id;
      const flat3 = (
        await makeFlat(t.db, await makeBuilding(t.db, { city: 'Vilnius', street: 'Ąžuolyno g.', number: '7' }), {
          name: '3',
          order: 3,
        })
      ).id;
      const p1 = await device(4, flat);
      const p2 = await device(4, flat2);
      const silent = await device(4, flat3);
      await makeReadings(t.db, p1, [
        ['2025-12-31T22:00:00+02:00', 100],
        ['2026-01-31T22:00:00+02:00', 110],
      ]);
      await makeReadings(t.db, p2, [
        ['2025-12-31T22:00:00+02:00', 200],
        ['2026-01-31T22:00:00+02:00', 220],
      ]);
      await makeReadings(t.db, silent, [['2025-12-31T22:00:00+02:00', 50]]);
      for (const month of ['2025-12-01', '2026-01-01'])
        await computeMonthEnds(t.db, month, [p1, p2, silent], TOLERANCE);
      expect(await monthEnd(silent, '2026-01')).toMatchObject({
        value: 65,
        source: 'estimated',
        method: 'building_average',
      });
      // With areas 50 and 100 m²: 30 / 150 = 0.2 per m², times the silent flat's 60 m².
      await t.db.query(
        'UPDATE location SET area_m2 = CASE id WHEN $1 THEN 50 WHEN $2 THEN 100 ELSE 60 END WHERE id = ANY($3)',
        [flat, flat2, [flat, flat2, flat3]],
      );
      await computeMonthEnds(t.db, '2026-01-01', [silent], TOLERANCE);
      expect(await monthEnd(silent, '2026-01')).toMatchObject({
        value: 62,
        source: 'estimated',
        method: 'building_average_m2',
        previous_value: 65,
        previous_source: 'estimated',
      });
    });

    it('estimated: the same month last year scaled by the recent trend (at most 2x) comes first', async () => {
      const d = await device(2);
      await t.db.query(
        `INSERT INTO month_end (device_id, month, value, source) VALUES
           ($1, '2024-09-01', 50, 'measured'), ($1, '2024-12-01', 80, 'measured'), ($1, '2025-01-01', 100, 'measured'),
           ($1, '2025-09-01', 200, 'measured'), ($1, '2025-12-01', 260, 'measured')`,
        [d],
      );
      await computeMonthEnds(t.db, '2026-01-01', [d], TOLERANCE);
      // Last January used 20; the last three months 60 against 30 a year before: ×2.
      expect(await monthEnd(d, '2026-01')).toMatchObject({
        value: 300,
        source: 'estimated',
        method: 'last_year_trend',
      });
    });
  });

  describe('device memory from real telegrams', () => {
    it('keeps the set-day and monthly history values the drivers send, and queues their months', async () => {
      const samples = readFileSync(new URL('../ingest/testdata/wmbusmeters-samples.jsonl', import.meta.url), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { driver: string; expected_json: Record<string, unknown> });
      const pick = (driver: string) => samples.find((s) => s.driver === driver)!.expected_json;
      const qcaloric = pick('qcaloric');
      const izar = pick('izar');
      const hca = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.allocator, code: String(qcaloric.id) });
      const water = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.coldWaterMeter, code: String(izar.id) });
      await t.db.query('DELETE FROM dq_pending');
      const items = [qcaloric, izar].map((json, i) => {
        const withTime = { ...json, timestamp: '2019-02-20T10:00:00Z' };
        return { position: i + 1, json: withTime, raw: JSON.stringify(withTime) };
      });
      expect((await ingestTelegrams(t.db, items)).Stored).toBe(2);
      const { rows } = await t.db.query<{ device_id: number; day: string; value: string }>(
        'SELECT device_id, day::text AS day, value::text AS value FROM device_memory WHERE device_id = ANY($1) ORDER BY 1, 2',
        [[hca, water]],
      );
      expect(rows).toEqual([
        { device_id: hca, day: '2018-12-31', value: '145' },
        { device_id: hca, day: '2019-01-31', value: '79' },
        { device_id: water, day: '2019-09-30', value: '3.486' },
      ]);
      const { rows: pending } = await t.db.query<{ device_id: number; month: string }>(
        'SELECT device_id, month::text AS month FROM dq_pending ORDER BY 1, 2',
      );
      expect(pending).toEqual([
        { device_id: hca, month: '2018-12-01' },
        { device_id: hca, month: '2019-01-01' },
        { device_id: hca, month: '2019-02-01' },
        { device_id: water, month: '2019-02-01' },
        { device_id: water, month: '2019-09-01' },
      ]);
    });
  });

  describe('device memory without dates: monthly history counted back from the meter date', () => {
    it('bfw240radio: prev_NN_hca is the value at the end of the month NN months before device_date', async () => {
      const samples = readFileSync(new URL('../ingest/testdata/wmbusmeters-samples.jsonl', import.meta.url), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { driver: string; expected_json: Record<string, unknown> });
      const bfw = samples.find((s) => s.driver === 'bfw240radio')!.expected_json;
      expect(bfw.device_date).toBe('2021-02-28');
      const hca = await makeDevice(t.db, flat, {
        typeId: DEVICE_TYPE.allocator,
        code: String(bfw.id),
        installedAt: '2019-01-01T00:00:00Z',
      });
      const json = { ...bfw, timestamp: '2021-02-28T10:00:00Z' };
      expect((await ingestTelegrams(t.db, [{ position: 1, json, raw: JSON.stringify(json) }])).Stored).toBe(1);
      const { rows } = await t.db.query<{ day: string; value: string }>(
        'SELECT day::text AS day, value::text AS value FROM device_memory WHERE device_id = $1 ORDER BY day DESC',
        [hca],
      );
      expect(rows).toHaveLength(18);
      expect(rows.slice(0, 4)).toEqual([
        { day: '2021-01-31', value: '541' },
        { day: '2020-12-31', value: '961' },
        { day: '2020-11-30', value: '522' },
        { day: '2020-10-31', value: '226' },
      ]);
      expect(rows.at(-1)).toEqual({ day: '2019-08-31', value: '0' });
      // No reading around the end of January: the month end comes from the meter's memory.
      await computeMonthEnds(t.db, '2021-01-01', [hca], TOLERANCE);
      expect(await monthEnd(hca, '2021-01')).toMatchObject({ value: 541, source: 'memory' });
    });
  });

  describe('refreshMonthEnds: the queue and the schedule', () => {
    it('fills every completed month of every device in service, and recomputes only what is queued', async () => {
      const d = await device();
      await t.db.query('DELETE FROM dq_pending');
      await makeReadings(t.db, d, [
        ['2026-04-30T12:00:00+03:00', 1],
        ['2026-05-31T12:00:00+03:00', 2],
      ]);
      const first = await refreshMonthEnds(t.db, new Date('2026-06-10T00:00:00Z'));
      expect(first.written).toBeGreaterThan(0);
      expect(await monthEnd(d, '2026-04')).toMatchObject({ value: 1, source: 'measured' });
      expect(await monthEnd(d, '2026-05')).toMatchObject({ value: 2, source: 'measured' });
      // The running month has no value yet.
      expect(await monthEnd(d, '2026-06')).toBeUndefined();
      // Nothing new: nothing written.
      expect((await refreshMonthEnds(t.db, new Date('2026-06-10T00:00:00Z'))).written).toBe(0);
    });
  });

  describe('before the first reading: estimated backwards; no reading at all: listed as missing', () => {
    it("counts back from the first reading by the building's average consumption of the type, month by month", async () => {
      const house = await makeBuilding(t.db, { city: 'Kaunas', street: 'Beržų g.', number: '3' });
      const flats = await Promise.all(['1', '2', '3', '4'].map((name, i) => makeFlat(t.db, house, { name, order: i })));
      const peer1 = await device(3, flats[0]!.id);
      const peer2 = await device(3, flats[1]!.id);
      // Installed in December without an initial reading; its first telegram came in mid-February.
      const late = await makeDevice(t.db, flats[2]!.id, {
        typeId: DEVICE_TYPE.coldWaterMeter,
        code: `ME-${++n}`,
        installedAt: '2025-12-10T00:00:00+02:00',
      });
      const none = await makeDevice(t.db, flats[3]!.id, {
        typeId: DEVICE_TYPE.coldWaterMeter,
        code: `ME-${++n}`,
        installedAt: '2025-12-10T00:00:00+02:00',
      });
      // The peers used 10 in January (both) and 10 and 30 in February: 10 and 20 on average.
      await makeReadings(t.db, peer1, [
        ['2025-12-31T22:00:00+02:00', 100],
        ['2026-01-31T22:00:00+02:00', 110],
        ['2026-02-28T22:00:00+02:00', 120],
      ]);
      await makeReadings(t.db, peer2, [
        ['2025-12-31T22:00:00+02:00', 200],
        ['2026-01-31T22:00:00+02:00', 210],
        ['2026-02-28T22:00:00+02:00', 240],
      ]);
      await makeReadings(t.db, late, [
        ['2026-02-15T00:00:00+02:00', 100],
        ['2026-03-05T00:00:00+02:00', 105],
      ]);
      await refreshMonthEnds(t.db, new Date('2026-03-10T00:00:00Z'));
      // January's end: 100 minus half of February (14 of 28 days) at 20: 90.
      expect(await monthEnd(late, '2026-01')).toMatchObject({
        value: 90,
        source: 'estimated',
        method: 'backward_building_average',
      });
      // December's end: January's 90 minus January's 10.
      expect(await monthEnd(late, '2025-12')).toMatchObject({
        value: 80,
        source: 'estimated',
        method: 'backward_building_average',
      });
      // February's end lies between two readings; November's is before the installation.
      expect((await monthEnd(late, '2026-02'))?.source).toBe('interpolated');
      expect(await monthEnd(late, '2025-11')).toBeUndefined();
      expect(await monthEnd(none, '2026-01')).toBeUndefined();
      // Stable: a second run changes nothing.
      expect((await refreshMonthEnds(t.db, new Date('2026-03-10T00:00:00Z'))).written).toBe(0);

      // A reading from January delivered late: January is interpolated, December counts back from it.
      await makeReadings(t.db, late, [['2026-01-20T00:00:00+02:00', 95]]);
      await t.db.query("INSERT INTO dq_pending (device_id, month) VALUES ($1, '2026-01-01')", [late]);
      await refreshMonthEnds(t.db, new Date('2026-03-10T00:00:00Z'), { ensure: false });
      expect((await monthEnd(late, '2026-01'))?.source).toBe('interpolated');
      // 95 minus 19 of January's 31 days at 10.
      expect(await monthEnd(late, '2025-12')).toMatchObject({
        value: 88.871,
        source: 'estimated',
        method: 'backward_building_average',
        previous_value: 80,
      });

      // The API lists the device without any reading as missing, with the reason, from its installation on.
      const manager = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [house.id] });
      const list = await inject(t.app, contract.getMonthEnds, {
        params: { deviceId: none },
        query: 'from=2025-10&till=2026-02',
        token: manager.token,
      });
      expect(list.status).toBe(200);
      expect(list.body.map((m) => [m.Month, m.Source, m.Value, m.Missing])).toEqual([
        ['2025-12', 'missing', null, 'noReading'],
        ['2026-01', 'missing', null, 'noReading'],
        ['2026-02', 'missing', null, 'noReading'],
      ]);
      const values = await inject(t.app, contract.getMonthEnds, {
        params: { deviceId: late },
        query: 'from=2025-11&till=2026-02',
        token: manager.token,
      });
      expect(values.body.map((m) => [m.Month, m.Source, m.Missing])).toEqual([
        ['2025-12', 'estimated', null],
        ['2026-01', 'interpolated', null],
        ['2026-02', 'interpolated', null],
      ]);
    });
  });

  describe('GET/PUT/DELETE /api/data-quality/month-ends', () => {
    it('an estimated month end becomes measured when a late reading arrives, and the change is visible', async () => {
      const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
      const manager = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [building] });
      const outsider = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [] });
      const d = await device(3);
      await makeReadings(t.db, d, [['2026-07-10T12:00:00+03:00', 40]]);
      await refreshMonthEnds(t.db, new Date('2026-08-05T00:00:00Z'));
      const before = await inject(t.app, contract.getMonthEnds, {
        params: { deviceId: d },
        query: 'from=2026-07&till=2026-07',
        token: manager.token,
      });
      expect(before.status).toBe(200);
      expect(before.body).toEqual([
        expect.objectContaining({
          Month: '2026-07',
          Source: 'estimated',
          Value: 40,
          MonthEnd: '2026-08-01T00:00:00+03:00',
        }),
      ]);
      // The readings screen's marker: the selection's month ends that are not measured.
      const unmeasured = async (token: string, parents?: string) =>
        (
          await inject(t.app, contract.getUnmeasuredMonthEnds, {
            query: { month: '2026-07', deviceTypeId: DEVICE_TYPE.coldWaterMeter, locationParentId: parents },
            token,
          })
        ).body.filter((m) => m.DeviceId === d);
      expect(await unmeasured(manager.token)).toEqual([expect.objectContaining({ Source: 'estimated', Value: 40 })]);
      expect(await unmeasured(manager.token, String(building))).toHaveLength(1);
      expect(await unmeasured(outsider.token)).toEqual([]);
      // The collector's late delivery: a reading on July 31st, imported on August 6th.
      const csv = await inject(t.app, contract.importCsv, {
        token: operator.token,
        body: `ME-${n};2026-07-31T23:00:00+03:00;47.5\n`,
        headers: { 'content-type': 'text/csv' },
      });
      expect(csv.body.Stored).toBe(1);
      await refreshMonthEnds(t.db, new Date('2026-08-06T00:00:00Z'));
      const after = await inject(t.app, contract.getMonthEnds, {
        params: { deviceId: d },
        query: 'from=2026-07&till=2026-07',
        token: manager.token,
      });
      expect(await unmeasured(manager.token)).toEqual([]);
      expect(after.body).toEqual([
        expect.objectContaining({
          Source: 'measured',
          Value: 47.5,
          ReadingTime: '2026-07-31T23:00:00+03:00',
          PreviousSource: 'estimated',
          PreviousValue: 40,
        }),
      ]);
      expect(
        (
          await inject(t.app, contract.getMonthEnds, {
            params: { deviceId: d },
            query: 'from=2026-07&till=2026-07',
            token: outsider.token,
          })
        ).status,
      ).toBe(404);
      const bad = await inject(t.app, contract.getMonthEnds, {
        params: { deviceId: d },
        query: { from: '2026-13', till: '2026-07' },
        token: manager.token,
      });
      expect(bad.status).toBe(400);
      expect(bad.error.errors![0]!.field).toContain('from');
    });

    it('an operator sets a value by hand with a reason (audited); the schedule keeps it; removing it recomputes', async () => {
      const operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
      const admin = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [building] });
      const d = await device(3);
      await makeReadings(t.db, d, [['2026-07-31T10:00:00+03:00', 12]]);
      await refreshMonthEnds(t.db, new Date('2026-08-05T00:00:00Z'));
      const body = { value: 12.75, reason: 'Read on a site visit' };
      expect(
        (
          await inject(t.app, contract.setMonthEnd, {
            params: { deviceId: d, month: '2026-07' },
            token: admin.token,
            body,
          })
        ).status,
      ).toBe(403);
      expect(
        (
          await inject(t.app, contract.setMonthEnd, {
            params: { deviceId: d, month: '2026-07' },
            token: operator.token,
            body: { value: 1, reason: ' ' },
          })
        ).status,
      ).toBe(400);
      const future = await inject(t.app, contract.setMonthEnd, {
        params: { deviceId: d, month: '2099-01' },
        token: operator.token,
        body,
      });
      expect(future.status).toBe(400);
      const set = await inject(t.app, contract.setMonthEnd, {
        params: { deviceId: d, month: '2026-07' },
        token: operator.token,
        body,
      });
      expect(set.status).toBe(200);
      expect(set.body).toMatchObject({
        Source: 'manual',
        Value: 12.75,
        Reason: 'Read on a site visit',
        SetBy: operator.username,
        PreviousSource: 'measured',
        PreviousValue: 12,
      });
      await t.db.query('INSERT INTO dq_pending (device_id, month) VALUES ($1, $2)', [d, '2026-07-01']);
      await refreshMonthEnds(t.db, new Date('2026-08-06T00:00:00Z'));
      expect(await monthEnd(d, '2026-07')).toMatchObject({ source: 'manual', value: 12.75 });
      const { rows } = await t.db.query<{ kind: string }>(
        "SELECT kind FROM audit_log WHERE entity = 'monthEnd' AND entity_id = $1 ORDER BY id",
        [`${d}/2026-07`],
      );
      expect(rows.map((r) => r.kind)).toEqual(['monthEnd.set']);
      expect(
        (
          await inject(t.app, contract.clearMonthEnd, {
            params: { deviceId: d, month: '2026-07' },
            token: operator.token,
          })
        ).status,
      ).toBe(200);
      expect(await monthEnd(d, '2026-07')).toMatchObject({ source: 'measured', value: 12 });
      expect(
        (
          await inject(t.app, contract.clearMonthEnd, {
            params: { deviceId: d, month: '2026-07' },
            token: operator.token,
          })
        ).status,
      ).toBe(404);
    });
  });
});

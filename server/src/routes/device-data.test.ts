import type { DeviceTypeInSelection, ReadingRow } from '@rodmenys/contract';
import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn, type SignedIn } from '../test/factories.js';

// The device data screen's own endpoints: the types found in a selection and a
// device's history chart. Europe/Vilnius is UTC+2 in winter and UTC+3 in summer
// (2025: forward on 30 March, back on 26 October).
const t = useApp();
const loc: Record<string, number> = {};
const dev: Record<string, number> = {};
const users: Record<string, SignedIn> = {};

const HOUR = 3_600_000;
/** Hourly readings from 2024-12-31 12:00 UTC to 2026-01-01 12:00 UTC, +0.25 per hour. */
const hourly = (): [string, number][] => {
  const start = Date.UTC(2024, 11, 31, 12);
  const out: [string, number][] = [];
  for (let t = start, v = 1000; t <= Date.UTC(2026, 0, 1, 12); t += HOUR, v += 0.25) {
    out.push([new Date(t).toISOString(), v]);
  }
  return out;
};

beforeAll(async () => {
  const v12 = await makeBuilding(t.db, { city: 'Vilnius', street: 'Gedimino pr.', number: '12' });
  loc.V12 = v12.id;
  loc.V12f1 = (await makeFlat(t.db, v12, { name: '1', order: 1 })).id;
  loc.V12f2 = (await makeFlat(t.db, v12, { name: '2', order: 2 })).id;
  const k3 = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '3' });
  loc.K3 = k3.id;
  loc.K3f1 = (await makeFlat(t.db, k3, { name: '1', order: 1 })).id;

  dev.hourly = await makeDevice(t.db, loc.V12f1, {
    typeId: DEVICE_TYPE.allocator,
    code: 'HCA-HOURLY',
    ratingFactor: 2,
  });
  await makeReadings(t.db, dev.hourly, hourly());
  dev.hca2 = await makeDevice(t.db, loc.V12f2, { typeId: DEVICE_TYPE.allocator, code: 'HCA-2', ratingFactor: 1 });
  dev.late = await makeDevice(t.db, loc.V12f1, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'CWM-LATE' });
  await makeReadings(t.db, dev.late, [
    ['2025-06-10T10:00:00+03:00', 5],
    ['2025-06-10T20:00:00+03:00', 5.5],
    ['2025-06-12T09:00:00+03:00', 7.25],
  ]);
  dev.hwm = await makeDevice(t.db, loc.V12f2, { typeId: DEVICE_TYPE.hotWaterMeter, code: 'HWM-1' });
  dev.removed = await makeDevice(t.db, loc.V12f1, {
    typeId: DEVICE_TYPE.hotWaterMeter,
    code: 'HWM-OLD',
    installedAt: '2020-01-01T00:00:00+02:00',
    removedAt: '2025-03-01T12:00:00+02:00',
  });
  dev.future = await makeDevice(t.db, loc.V12f1, {
    typeId: DEVICE_TYPE.heatMeter,
    code: 'HM-FUTURE',
    installedAt: '2025-09-01T00:00:00+03:00',
  });
  dev.building = await makeDevice(t.db, loc.V12, { typeId: DEVICE_TYPE.buildingHeatMeter, code: 'BHM-1' });
  dev.kaunas = await makeDevice(t.db, loc.K3f1, { typeId: DEVICE_TYPE.coldWaterMeter, code: 'CWM-K3' });

  users.none = await makeSignedIn(t.app, { groupId: GROUP.user });
  users.v12 = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [loc.V12] });
  users.adminK3 = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [loc.K3] });
  users.adminAll = await makeSignedIn(t.app, { groupId: GROUP.admin, rights: [loc.V12, loc.K3] });
  users.operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
}, 180_000); // a year of hourly readings and five signed-in users: generous on a busy machine

const counts = (body: DeviceTypeInSelection[]) => Object.fromEntries(body.map((t) => [t.Id, t.DeviceCount]));

describe(`GET /api/devices/typesInSelection (${dbKind()})`, () => {
  const types = (query: string | { locationParentId?: number | string; userId?: number }, token?: string) =>
    inject(t.app, contract.getDeviceTypesInSelection, { query, token });

  it('lists the types in the caller scope with counts of devices not removed', async () => {
    const res = await types({}, users.v12!.token);
    expect(res.status).toBe(200);
    expect(counts(res.body)).toEqual({ 1: 2, 2: 1, 3: 1, 4: 1, 11: 1 });
    const hca = res.body.find((t: DeviceTypeInSelection) => t.Id === 1);
    expect(hca).toEqual({
      Id: 1,
      DeviceTypeCode: 'HCA',
      DeviceTypeName: 'Šilumos daliklis',
      DeviceTypeNameEn: 'Heat cost allocator',
      DeviceCategoryCode: 'HEAT',
      DataLoadProc: 'allocator',
      DeviceCount: 2,
    });
  });

  it('narrows to the selected subtrees, one or several', async () => {
    const token = users.v12!.token;
    const flat1 = await types({ locationParentId: loc.V12f1 }, token);
    expect(counts(flat1.body)).toEqual({ 1: 1, 2: 1, 3: 1 });
    const both = await types({ locationParentId: `${loc.V12f1},${loc.V12f2}` }, token);
    expect(counts(both.body)).toEqual({ 1: 2, 2: 1, 3: 1, 4: 1 });
    const repeated = await types(`locationParentId=${loc.V12f1}&locationParentId=${loc.V12f2}`, token);
    expect(repeated.body).toEqual(both.body);
  });

  it('with a period counts the devices present in it', async () => {
    const token = users.v12!.token;
    const feb = await types('dateFrom=2025-02-01 00:00:00&dateTill=2025-02-28 23:59:59', token);
    expect(counts(feb.body)).toEqual({ 1: 2, 3: 1, 4: 2, 11: 1 });
    const autumn = await types('dateFrom=2025-09-01&dateTill=2025-09-30', token);
    expect(counts(autumn.body)).toEqual({ 1: 2, 2: 1, 3: 1, 4: 1, 11: 1 });
  });

  it('reveals nothing outside the scope', async () => {
    const outside = await types({ locationParentId: loc.K3 }, users.v12!.token);
    expect(outside.status).toBe(200);
    expect(outside.body).toEqual([]);
    const none = await types({}, users.none!.token);
    expect(none.body).toEqual([]);
    const admin = await types({}, users.adminK3!.token);
    expect(counts(admin.body)).toEqual({ 3: 1 });
    const operator = await types({}, users.operator!.token);
    expect(counts(operator.body)).toEqual({ 1: 2, 2: 1, 3: 2, 4: 1, 11: 1 });
  });

  it('applies the userId rule', async () => {
    // Another account than your own, out of reach (docs/security.md): 404, as for no such account.
    const other = await types({ userId: users.v12!.id }, users.none!.token);
    expect(other.status).toBe(404);
    const own = await types({ userId: users.v12!.id }, users.v12!.token);
    expect(own.status).toBe(200);
    // An administrator acting for another user sees the intersection of both scopes.
    const asUser = await types({ userId: users.v12!.id }, users.adminAll!.token);
    expect(counts(asUser.body)).toEqual({ 1: 2, 2: 1, 3: 1, 4: 1, 11: 1 });
    // v12's rights lie outside adminK3's scope: the account is out of its reach.
    const outside = await types({ userId: users.v12!.id }, users.adminK3!.token);
    expect(outside.status).toBe(404);
  });

  it('answers 401 without a token and 400 on bad input', async () => {
    expect((await types({})).status).toBe(401);
    const token = users.v12!.token;
    for (const query of [
      'locationParentId=abc',
      'locationParentId=1,,2',
      'dateFrom=2025-02-01',
      'dateTill=2025-02-01',
      'dateFrom=2025-02-30&dateTill=2025-03-01',
      'dateFrom=2025-03-01&dateTill=2025-02-01',
      'userId=0',
    ]) {
      const res = await types(query, token);
      expect(res.status, query).toBe(400);
      expect(typeof res.error.message, query).toBe('string');
    }
  });
});

describe(`GET /api/devices/:id/history (${dbKind()})`, () => {
  const ask = (id: number, from: string, till: string, token?: string, userId?: number) =>
    inject(t.app, contract.getDeviceHistory, {
      params: { id },
      query: { dateFrom: from, dateTill: till, userId },
      token,
    });
  const history = async (id: number, from: string, till: string, token = users.operator!.token) => {
    const res = await ask(id, from, till, token);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it('a year of hourly readings becomes one point per day that adds up to GetDevicesData', async () => {
    const h = await history(dev.hourly!, '2025-01-01 00:00:00', '2025-12-31 23:59:59');
    expect(h).toMatchObject({
      DeviceId: dev.hourly,
      DeviceTypeId: DEVICE_TYPE.allocator,
      DeviceCode: 'HCA-HOURLY',
      Bucket: 'day',
    });
    expect(h.Points).toHaveLength(365);
    // The start is the reading exactly at 2025-01-01 00:00 local (22:00 UTC, the 35th hour).
    expect(h.Start).toEqual({ Time: '2025-01-01T00:00:00+02:00', Value: 1002.5 });
    // A reading exactly at a day's 00:00 ends the day before (docs/domain.md §5): the day holds 01:00 … 24:00.
    expect(h.Points[0]).toEqual({
      Time: '2025-01-01T00:00:00+02:00',
      Value: 1002.5 + 24 * 0.25,
      Consumption: 24 * 0.25,
      FirstReadingTime: '2025-01-01T01:00:00+02:00',
      LastReadingTime: '2025-01-02T00:00:00+02:00',
      Readings: 24,
    });
    const day = (d: string) => h.Points.find((p) => p.Time.startsWith(d))!;
    expect(day('2025-03-30').Readings).toBe(23); // spring forward
    expect(day('2025-10-26').Readings).toBe(25); // fall back
    expect(day('2025-07-01')).toMatchObject({ Time: '2025-07-01T00:00:00+03:00', Consumption: 6, Readings: 24 });
    expect(h.Points.reduce((n, p) => n + p.Readings, 0)).toBe(8760);

    const data = await inject(t.app, contract.getDevicesData, {
      query: `deviceTypeId=${DEVICE_TYPE.allocator}&dateFrom=2025-01-01&dateTill=2025-12-31&locationParentId=${loc.V12f1}`,
      token: users.operator!.token,
    });
    const row = (data.body as ReadingRow[]).find((r) => r.DeviceId === dev.hourly)!;
    const total = h.Points.reduce((s, p) => s + p.Consumption, 0);
    expect(total).toBeCloseTo(row.Difference!, 6);
    expect(h.Points.at(-1)!.Value).toBe(row.UnitsForHCATill);
    expect(h.Points.at(-1)!.LastReadingTime).toBe(row.TimeTill);
  });

  it('short periods are hourly; long ones weekly, then monthly', async () => {
    const short = await history(dev.hourly!, '2025-03-01', '2025-03-03');
    expect(short.Bucket).toBe('hour');
    // The reading at 01:00 ends the hour from 00:00; the one at 00:00 on 4 March ends the period.
    expect(short.Points).toHaveLength(3 * 24);
    expect(short.Points[0]).toMatchObject({
      Time: '2025-03-01T00:00:00+02:00',
      Consumption: 0.25,
      LastReadingTime: '2025-03-01T01:00:00+02:00',
      Readings: 1,
    });
    expect(short.Points.at(-1)).toMatchObject({ LastReadingTime: '2025-03-04T00:00:00+02:00' });
    const twoYears = await history(dev.hourly!, '2024-06-01', '2026-05-31');
    expect(twoYears.Bucket).toBe('week');
    expect(twoYears.Points.length).toBeLessThanOrEqual(60);
    const tenYears = await history(dev.hourly!, '2020-01-01', '2029-12-31');
    expect(tenYears.Bucket).toBe('month');
    expect(tenYears.Points).toHaveLength(14); // 2024-12 … 2026-01
    expect(tenYears.Start).toBeNull();
    // No reading before the period: the first point counts from the earliest reading inside it.
    expect(tenYears.Points[0]!.Consumption).toBe(tenYears.Points[0]!.Value - 1000);
  });

  it('without a start reading the first point counts from the first reading; empty periods are empty', async () => {
    const h = await history(dev.late!, '2025-06-01', '2025-06-30');
    expect(h.Start).toBeNull();
    expect(h.Points.map((p) => [p.Time.slice(0, 10), p.Value, p.Consumption, p.Readings])).toEqual([
      ['2025-06-10', 5.5, 0.5, 2],
      ['2025-06-12', 7.25, 1.75, 1],
    ]);
    const after = await history(dev.late!, '2025-07-01', '2025-07-31');
    expect(after.Start).toEqual({ Time: '2025-06-12T09:00:00+03:00', Value: 7.25 });
    expect(after.Points).toEqual([]);
    const silent = await history(dev.hca2!, '2025-07-01', '2025-07-31');
    expect(silent).toMatchObject({ Start: null, Points: [] });
  });

  it('is scoped by rights: 404 outside the scope and for another userId out of reach, 401 anonymous', async () => {
    const cases: [string, number, number][] = [
      ['none', dev.late!, 404],
      ['v12', dev.late!, 200],
      ['v12', dev.building!, 200],
      ['v12', dev.kaunas!, 404],
      ['adminK3', dev.kaunas!, 200],
      ['adminK3', dev.late!, 404],
      ['adminAll', dev.late!, 200],
      ['operator', dev.kaunas!, 200],
      ['operator', 999_999, 404],
    ];
    for (const [user, id, status] of cases) {
      const res = await ask(id, '2025-06-01', '2025-06-30', users[user]!.token);
      expect(res.status, `${user} ${id}`).toBe(status);
    }
    expect((await ask(dev.late!, '2025-06-01', '2025-06-30')).status).toBe(401);
    const other = await ask(dev.late!, '2025-06-01', '2025-06-30', users.v12!.token, users.operator!.id);
    expect(other.status).toBe(404);
    // An administrator acting for a user without rights there sees nothing.
    const narrowed = await ask(dev.late!, '2025-06-01', '2025-06-30', users.adminAll!.token, users.none!.id);
    expect(narrowed.status).toBe(404);
  });

  it('answers 400 on bad input', async () => {
    const token = users.operator!.token;
    const cases: [string | number, string][] = [
      ['abc', 'dateFrom=2025-01-01&dateTill=2025-01-02'],
      [0, 'dateFrom=2025-01-01&dateTill=2025-01-02'],
      [dev.late!, 'dateFrom=2025-01-01'],
      [dev.late!, 'dateFrom=2025-13-01&dateTill=2025-12-02'],
      [dev.late!, 'dateFrom=2025-02-01&dateTill=2025-01-01'],
      [dev.late!, 'dateFrom=yesterday&dateTill=2025-01-01'],
      [dev.late!, 'dateFrom=1900-01-01&dateTill=2025-01-01'],
    ];
    for (const [id, query] of cases) {
      const path = `${id}?${query}`;
      const res = await inject(t.app, contract.getDeviceHistory, { params: { id }, query, token });
      expect(res.status, path).toBe(400);
      expect(typeof res.error.message).toBe('string');
    }
  });
});

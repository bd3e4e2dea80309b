import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, GROUP, LOCATION_LEVEL } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn, type SignedIn } from '../test/factories.js';

const t = useApp();

describe(`degree-days over HTTP: list, set by hand, CSV import (${dbKind()})`, () => {
  let operator: SignedIn;
  let manager: SignedIn;
  let kaunas: number;
  let alytus: number;
  let hca: number;
  const csv = (text: string, token = operator.token) =>
    inject(t.app, contract.importDegreeDays, { payload: text, token, headers: { 'content-type': 'text/csv' } });
  const values = async (year = 2026) =>
    (await inject(t.app, contract.listDegreeDays, { query: { year }, token: operator.token })).body.Values;
  const monthEnd = async (month: string) =>
    (
      await t.db.query<{ value: number; method: string }>(
        'SELECT value::float8 AS value, method FROM month_end WHERE device_id = $1 AND month = $2::date',
        [hca, `${month}-01`],
      )
    ).rows[0];

  beforeAll(async () => {
    const building = await makeBuilding(t.db, { city: 'Kaunas', street: 'Laisvės al.', number: '10' });
    kaunas = building.path[LOCATION_LEVEL.city - 1]!;
    alytus = (await makeBuilding(t.db, { city: 'Alytus', street: 'Vilniaus g.', number: '1' })).path[
      LOCATION_LEVEL.city - 1
    ]!;
    const flat = await makeFlat(t.db, building, { name: '1', order: 1 });
    hca = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.allocator, installedAt: '2025-12-01T00:00:00+02:00' });
    await makeReadings(t.db, hca, [
      ['2026-01-20T00:00:00+02:00', 100],
      ['2026-02-09T00:00:00+02:00', 300],
    ]);
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    manager = await makeSignedIn(t.app, { groupId: GROUP.user, rights: [building.id] });
  });

  it('lists every city and the values of a year; group 1 only', async () => {
    const res = await inject(t.app, contract.listDegreeDays, { query: { year: 2026 }, token: operator.token });
    expect(res.status).toBe(200);
    expect(res.body.Cities.map((c) => c.Name)).toEqual(expect.arrayContaining(['Alytus', 'Kaunas']));
    expect(res.body.Cities.find((c) => c.Id === kaunas)).toMatchObject({ Region: 'Kaunas m. sav.' });
    expect(res.body.Values).toEqual([]);
    const refused = await inject(t.app, contract.listDegreeDays, { query: { year: 2026 }, token: manager.token });
    expect(refused.status).toBe(403);
    expect((await csv('Kaunas;2026-01;31', manager.token)).status).toBe(403);
  });

  it('a CSV with one wrong line stores nothing and names every wrong line; a good one stores all (header, decimal comma)', async () => {
    const bad = await csv(
      [
        'city;month;value',
        'Kaunas;2026-01;31',
        'Klaipėda;2026-01;30',
        'Kaunas;2026-13;30',
        'Kaunas;2026-02;-4',
        'Kaunas;2026-01;32',
        'Kaunas;2026-03',
      ].join('\n'),
    );
    expect(bad.status).toBe(400);
    expect(bad.error).toMatchObject({ code: 'degreeDaysInvalid', params: { count: '5' } });
    expect(bad.error.errors?.map((e) => [e.field, e.code])).toEqual([
      ['line 3', 'degreeDaysCity'],
      ['line 4', 'degreeDaysMonth'],
      ['line 5', 'degreeDaysValue'],
      ['line 6', 'degreeDaysRepeated'],
      ['line 7', 'degreeDaysColumns'],
    ]);
    expect(bad.error.errors?.[0]?.message).toBe('Line 3: there is no city "Klaipėda"');
    expect(await values()).toEqual([]);

    const good = await csv(
      `Miestas;Mėnuo;Dienolaipsniai\r\nkaunas ;2026-01;31\r\n${kaunas};2026-2;"84,0"\r\nAlytus;2026-01;29,5\r\n`,
    );
    expect(good.status).toBe(200);
    expect(good.body).toEqual({ Lines: 3, Created: 3, Updated: 0, Unchanged: 0 });
    expect(await values()).toEqual([
      { CityId: Math.min(kaunas, alytus), Month: '2026-01', Value: kaunas < alytus ? 31 : 29.5 },
      ...(kaunas < alytus
        ? [
            { CityId: kaunas, Month: '2026-02', Value: 84 },
            { CityId: alytus, Month: '2026-01', Value: 29.5 },
          ]
        : [
            { CityId: kaunas, Month: '2026-01', Value: 31 },
            { CityId: kaunas, Month: '2026-02', Value: 84 },
          ]),
    ]);
    // The same file again changes nothing and writes no audit entry.
    const before = Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM audit_log')).rows[0]!.n);
    const again = await csv(`Kaunas;2026-01;31\nKaunas;2026-02;84\nAlytus;2026-01;29.5`);
    expect(again.body).toEqual({ Lines: 3, Created: 0, Updated: 0, Unchanged: 3 });
    expect(Number((await t.db.query<{ n: string }>('SELECT count(*) AS n FROM audit_log')).rows[0]!.n)).toBe(before);
  });

  it('an empty file, and an ambiguous city name, are refused', async () => {
    expect((await csv('  \n')).error).toMatchObject({ code: 'degreeDaysEmpty' });
    // A second city named Kaunas elsewhere: the name no longer says which.
    await t.db.query(
      `INSERT INTO location (parent_id, level, name, path, country, county, region, city)
       SELECT parent_id, 4, 'Kaunas', path[1:3], country, county, 'Kitas', 'Kaunas' FROM location WHERE id = $1`,
      [alytus],
    );
    await t.db.query(`UPDATE location SET path = path || id WHERE level = ${LOCATION_LEVEL.city} AND region = 'Kitas'`);
    const ambiguous = await csv('Kaunas;2026-03;70');
    expect(ambiguous.error.errors?.[0]).toMatchObject({ field: 'line 1', code: 'degreeDaysCityAmbiguous' });
    expect((await csv(`${kaunas};2026-03;70`)).status).toBe(200);
  });

  it('set by hand (audited, named), removed with null; interpolated allocator month ends follow', async () => {
    await refreshMonthEnds(t.db, new Date('2026-03-15T12:00:00Z'));
    // January 31 and February 84 degree-days of Kaunas, spread over whole days (the days of both
    // readings count): 12 days of 1 before the month end, 9 days of 3 after.
    expect(await monthEnd('2026-01')).toMatchObject({ value: 161.538, method: 'degree_days' });
    const set = await inject(t.app, contract.setDegreeDays, {
      params: { cityId: kaunas, month: '2026-02' },
      body: { value: 28 },
      token: operator.token,
    });
    expect(set.status).toBe(200);
    expect(set.body).toEqual({ CityId: kaunas, Month: '2026-02', Value: 28 });
    // The month end is queued again and computed by the scheduled work: now 1 a day all along, 12 of 21.
    await refreshMonthEnds(t.db, new Date('2026-03-15T12:01:00Z'));
    expect(await monthEnd('2026-01')).toMatchObject({ value: 214.286, method: 'degree_days' });
    const audit = await inject(t.app, contract.getAuditLog, {
      query: { kind: 'degreeDays.set' },
      token: operator.token,
    });
    expect(audit.body.Data[0]).toMatchObject({
      Entity: 'degreeDays',
      EntityName: 'Kaunas 2026-02',
      Before: { City: 'Kaunas', Month: '2026-02', Value: 84 },
      After: { City: 'Kaunas', Month: '2026-02', Value: 28 },
    });
    const removed = await inject(t.app, contract.setDegreeDays, {
      params: { cityId: kaunas, month: '2026-02' },
      body: { value: null },
      token: operator.token,
    });
    expect(removed.body.Value).toBeNull();
    expect((await values()).some((v) => v.CityId === kaunas && v.Month === '2026-02')).toBe(false);
    await refreshMonthEnds(t.db, new Date('2026-03-15T12:02:00Z'));
    // February unknown: interpolation falls back to time.
    expect(await monthEnd('2026-01')).toMatchObject({ value: 220, method: 'time' });
  });

  it('refuses what is not a city (404), a negative value (400 naming value), a bad month (400)', async () => {
    const flat = await makeFlat(t.db, await makeBuilding(t.db, { city: 'Kaunas' }), { name: '9' });
    const notCity = await inject(t.app, contract.setDegreeDays, {
      params: { cityId: flat.id, month: '2026-02' },
      body: { value: 1 },
      token: operator.token,
    });
    expect(notCity.status).toBe(404);
    expect(notCity.error.code).toBe('cityNotFound');
    const negative = await inject(t.app, contract.setDegreeDays, {
      params: { cityId: kaunas, month: '2026-02' },
      body: { value: -1 },
      token: operator.token,
    });
    expect(negative.status).toBe(400);
    expect(negative.error.errors?.[0]?.field).toBe('value');
    const month = await inject(t.app, contract.setDegreeDays, {
      params: { cityId: kaunas, month: '2026-2' },
      body: { value: 1 },
      token: operator.token,
    });
    expect(month.status).toBe(400);
  });
});

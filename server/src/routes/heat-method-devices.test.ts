import * as contract from '@rodmenys/contract';
import { DEVICE_TYPE, type FlatStatement, GROUP, LOCATION_LEVEL } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Caller } from '../services/auth/caller.js';
import { liveBuildingRows } from '../services/billing/rows.js';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
import { setBuildingHeatMethod } from '../services/heat-methods/heat-methods.js';
import { computeStatements } from '../services/statements/figures.js';
import { inject, useApp } from '../test/app.js';
import { dbKind } from '../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeSignedIn, type SignedIn } from '../test/factories.js';
import { heatMethod, OCTOBER_2026 } from '../test/heat-method.js';

/*
 * The building-level devices of the hot water's roles (docs/heat-method.md, "Devices"): the
 * hot-water input meter (m³) and the hot-water heat meter (kWh), added like other devices, in the
 * register, and read by the split: a `meter` method computes from them.
 */

const t = useApp();
const NOW = new Date('2026-11-20T10:00:00Z');

/** A `meter` method, the whole of October in the season, no shares: each part follows from the devices alone. */
const { MONTH, SEP, OCT, NOV, INSTALLED } = OCTOBER_2026;
const METHOD = heatMethod({ HotWaterHeat: 'meter' });

const heating = (s: FlatStatement) => s.Row.Kinds.find((k) => k.Kind === 'heating')!;

/**
 * A building: input 10,000 kWh in October; two allocator flats (Qrad 300 and 200) with 8 and 10 m³
 * of hot water; the hot-water heat meter measured `hwKwh` (null: it sent no reading), the
 * hot-water input meter 20 m³.
 */
async function building(number: string, hwKwh: number | null) {
  const b = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Vilniaus g.', number });
  const input = await makeDevice(t.db, b, { typeId: DEVICE_TYPE.buildingHeatMeter, installedAt: INSTALLED });
  await makeReadings(t.db, input, [
    [SEP, 40_000],
    [OCT, 50_000],
    [NOV, 60_000],
  ]);
  const hwHeat = await makeDevice(t.db, b, {
    typeId: DEVICE_TYPE.buildingHeatMeter,
    role: 'hotWaterHeat',
    installedAt: INSTALLED,
  });
  // No value: a meter that never sent a reading (a month end would be estimated from one it did send).
  if (hwKwh !== null)
    await makeReadings(t.db, hwHeat, [
      [SEP, 1_000],
      [OCT, 2_000],
      [NOV, 2_000 + hwKwh],
    ]);
  const hwInput = await makeDevice(t.db, b, {
    typeId: DEVICE_TYPE.hotWaterMeter,
    role: 'hotWaterInput',
    installedAt: INSTALLED,
  });
  await makeReadings(t.db, hwInput, [
    [SEP, 480],
    [OCT, 500],
    [NOV, 520],
  ]);
  const flats: number[] = [];
  for (const [i, f] of [
    { units: 300, m3: 8 },
    { units: 200, m3: 10 },
  ].entries()) {
    const flat = await makeFlat(t.db, b, { name: String(i + 1), order: i + 1 });
    flats.push(flat.id);
    await t.db.query('UPDATE location SET area_m2 = 50 WHERE id = $1', [flat.id]);
    const alloc = await makeDevice(t.db, flat, {
      typeId: DEVICE_TYPE.allocator,
      ratingFactor: 1,
      installedAt: INSTALLED,
    });
    await makeReadings(t.db, alloc, [
      [SEP, 0],
      [OCT, 100],
      [NOV, 100 + f.units],
    ]);
    const hot = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.hotWaterMeter, installedAt: INSTALLED });
    await makeReadings(t.db, hot, [
      [SEP, 10],
      [OCT, 20],
      [NOV, 20 + f.m3],
    ]);
  }
  return { id: b.id, flats };
}

describe(`the hot water's building-level devices (${dbKind()})`, { timeout: 120_000 }, () => {
  let operator: SignedIn;
  let caller: Caller;
  let metered: { id: number; flats: number[] };
  let silent: { id: number; flats: number[] };
  let plain: { id: number; flats: number[] };
  const load = (id: number) => computeStatements(t.db, MONTH, { scope: null, parents: [id] });

  beforeAll(async () => {
    operator = await makeSignedIn(t.app, { groupId: GROUP.operator });
    caller = { id: operator.id, username: operator.username, groupId: GROUP.operator, scope: null } as Caller;
    metered = await building('21', 1_500);
    silent = await building('23', null);
    plain = await building('25', 1_500);
    await refreshMonthEnds(t.db, NOW);
    await setBuildingHeatMethod(t.db, caller, metered.id, MONTH, METHOD);
    await setBuildingHeatMethod(t.db, caller, silent.id, MONTH, METHOD);
  });

  it('a meter method takes the hot water and circulation from the hot-water heat meter, V from the input meter', async () => {
    const k = (await load(metered.id)).map(heating);
    // Q_hw = 51 × 20 m³ = 1,020; circulation = 1,500 − 1,020 = 480, equally; S = 10,000 − 1,500 = 8,500 by Qrad.
    expect(k[0]!.HeatBalance).toMatchObject({
      Method: 'meter',
      Status: 'split',
      InputKwh: 10_000,
      HotWaterKwh: 1_020,
      CirculationKwh: 480,
      ConsumptionKwh: 8_500,
      HotWaterM3: 20,
      HotWaterLossesM3: 2,
    });
    expect(k.map((x) => x.KwhMethod)).toEqual(['heatMethod', 'heatMethod']);
    // The hot water's heat by the flats' m³ (8 and 10 of 18): 453.333 and 566.667 (the spare thousandth).
    expect(
      k.map((x) => x.HeatParts && [x.HeatParts.Consumption, x.HeatParts.HotWater, x.HeatParts.Circulation]),
    ).toEqual([
      [5_100, 453.333, 240],
      [3_400, 566.667, 240],
    ]);
    expect(k.map((x) => x.HeatParts!.Total)).toEqual([5_793.333, 4_206.667]);
  });

  it('a hot-water heat meter without a value leaves the month incomplete', async () => {
    const k = (await load(silent.id)).map(heating);
    expect(k[0]!.HeatBalance).toMatchObject({ Status: 'incomplete', InputKwh: null, HotWaterKwh: null });
    expect(k.map((x) => [x.KwhMethod, x.Current.Value])).toEqual([
      ['incompleteBuilding', null],
      ['incompleteBuilding', null],
    ]);
  });

  it('without a method the plain rule shares the input meter only; the role devices are rows of their own', async () => {
    const k = (await load(plain.id)).map(heating);
    expect(k[0]!.KwhMethod).toBe('buildingMeterByQrad');
    expect(k[0]!.BuildingLine).toMatchObject({ MeterKwh: 10_000, AllocatorKwh: 10_000 });
    expect(k.map((x) => x.Current.Value)).toEqual([6_000, 4_000]);
    const rows = await liveBuildingRows(t.db, MONTH, plain.id);
    expect(rows.find((r) => r.Line === 'building')).toMatchObject({ BuildingMeterKwh: 10_000 });
    const own = rows.filter((r) => r.Line === 'device' && r.Flat === null);
    expect(own.map((r) => [r.DeviceTypeId, r.Kind, r.Unit, r.Consumption])).toEqual([
      [DEVICE_TYPE.hotWaterMeter, 'hotWater', 'm3', 20],
      [DEVICE_TYPE.buildingHeatMeter, 'heating', 'kWh', 10_000],
      [DEVICE_TYPE.buildingHeatMeter, 'heating', 'kWh', 1_500],
    ]);
  });

  it('adds a device with a role on a building like any device, and refuses a role off its type or place', async () => {
    const b = await makeBuilding(t.db, { city: 'Šiauliai', street: 'Vilniaus g.', number: '27' });
    const flat = await makeFlat(t.db, b, { name: '1' });
    const add = (body: Omit<contract.AddDeviceBody, 'installedAt'>) =>
      inject(t.app, contract.addDevice, {
        body: { installedAt: '2026-01-01T00:00:00', ...body },
        token: operator.token,
      });
    const ok = await add({
      locationId: b.id,
      deviceTypeId: DEVICE_TYPE.hotWaterMeter,
      deviceCode: 'HWI-27',
      role: 'hotWaterInput',
    });
    expect(ok.status, ok.text).toBe(201);
    expect(ok.body).toMatchObject({ Role: 'hotWaterInput', DeviceTypeId: DEVICE_TYPE.hotWaterMeter, Flat: null });
    const heat = await add({
      locationId: b.id,
      deviceTypeId: DEVICE_TYPE.buildingHeatMeter,
      deviceCode: 'HWH-27',
      role: 'hotWaterHeat',
    });
    expect(heat.status, heat.text).toBe(201);
    expect(heat.body.Role).toBe('hotWaterHeat');
    const cases: [Omit<contract.AddDeviceBody, 'installedAt'>, string][] = [
      [
        { locationId: flat.id, deviceTypeId: DEVICE_TYPE.hotWaterMeter, deviceCode: 'X-1', role: 'hotWaterInput' },
        'roleOnBuilding',
      ],
      [
        { locationId: b.id, deviceTypeId: DEVICE_TYPE.coldWaterMeter, deviceCode: 'X-2', role: 'hotWaterInput' },
        'roleNotOfType',
      ],
      [
        { locationId: b.id, deviceTypeId: DEVICE_TYPE.hotWaterMeter, deviceCode: 'X-3', role: 'hotWaterHeat' },
        'roleNotOfType',
      ],
      [{ locationId: b.id, deviceTypeId: DEVICE_TYPE.hotWaterMeter, deviceCode: 'X-4' }, 'deviceOnFlat'],
    ];
    for (const [body, code] of cases) {
      const res = await add(body);
      expect([res.status, res.error?.code], res.text).toEqual([400, code]);
    }
    // The location's devices show the role.
    const detail = await inject(t.app, contract.getLocation, { params: { id: b.id }, token: operator.token });
    expect(detail.body.Devices.map((d) => [d.DeviceCode, d.Role])).toEqual(
      expect.arrayContaining([
        ['HWI-27', 'hotWaterInput'],
        ['HWH-27', 'hotWaterHeat'],
      ]),
    );
  });

  it('the register import carries the role (an optional column) and refuses one off its type', async () => {
    const head = ['Country', 'County', 'Region', 'City', 'Street', 'Building', 'Flat', 'ObjectCode'];
    const address = ['Lietuva', 'Šiaulių apskritis', 'Šiaulių m. sav.', 'Šiauliai', 'Tilžės g.', '3', '', 'OBJ-T3'];
    const send = (rows: string[][]) =>
      inject(t.app, contract.applyRegisterImport, {
        token: operator.token,
        payload: Buffer.from(
          [[...head, 'DeviceType', 'DeviceCode', 'InstalledAt', 'DeviceRole'], ...rows.map((r) => [...address, ...r])]
            .map((r) => r.join(';'))
            .join('\r\n'),
          'utf8',
        ),
        headers: { 'content-type': 'text/csv' },
      });
    const bad = await send([['CWM', 'REG-HWI', '2024-01-10', 'hotWaterInput']]);
    expect(bad.body.Applied).toBe(false);
    expect(bad.body.Errors.map((e) => [e.Code, e.Params.column])).toEqual([['INVALID_CHOICE', 'DeviceRole']]);
    const good = await send([
      ['HWM', 'REG-HWI', '2024-01-10', 'hotwaterinput'],
      ['BHM', 'REG-HWH', '2024-01-10', 'hotWaterHeat'],
      ['BHM', 'REG-IN', '2024-01-10', ''],
    ]);
    expect(good.body.Applied, JSON.stringify(good.body.Errors)).toBe(true);
    const { rows } = await t.db.query<{ device_code: string; role: string | null; level: number }>(
      `SELECT d.device_code, d.role, l.level FROM device d JOIN location l ON l.id = d.location_id
        WHERE d.device_code LIKE 'REG-%' ORDER BY d.device_code`,
    );
    expect(rows).toEqual([
      { device_code: 'REG-HWH', role: 'hotWaterHeat', level: LOCATION_LEVEL.building },
      { device_code: 'REG-HWI', role: 'hotWaterInput', level: LOCATION_LEVEL.building },
      { device_code: 'REG-IN', role: null, level: LOCATION_LEVEL.building },
    ]);
  });
});

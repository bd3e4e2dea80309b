import { DEVICE_TYPE, type FlatStatement, GROUP } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeReadings, makeUser } from '../../test/factories.js';
import { heatMethod, OCTOBER_2026 } from '../../test/heat-method.js';
import type { Caller } from '../auth/caller.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { setBuildingHeatMethod } from '../heat-methods/heat-methods.js';
import { computeStatements } from './figures.js';

/*
 * Flats without a working heating device under a heat method (docs/heat-method.md, step 3): a flat
 * whose allocators were taken out before the month is valued by area at the building's average and
 * shows it as its heating (the part named "no device"); a flat that never had a heating device (hot
 * water only) shows no heating figure.
 */

const t = useDb();
const MID_SEP = '2026-09-15T00:00:00+03:00';

const { MONTH, SEP, OCT, NOV, INSTALLED } = OCTOBER_2026;
const METHOD = heatMethod();

const heating = (s: FlatStatement) => s.Row.Kinds.find((k) => k.Kind === 'heating');

describe(`flats without a working heating device under a heat method (${dbKind()})`, () => {
  let building: number;
  let flats: number[];

  beforeAll(async () => {
    const operator = await makeUser(t.db, { groupId: GROUP.operator });
    const caller = { id: operator.id, username: operator.username, groupId: GROUP.operator, scope: null } as Caller;
    const b = await makeBuilding(t.db, { city: 'Utena', street: 'Aušros g.', number: '7' });
    building = b.id;
    const input = await makeDevice(t.db, b, { typeId: DEVICE_TYPE.buildingHeatMeter, installedAt: INSTALLED });
    await makeReadings(t.db, input, [
      [SEP, 0],
      [OCT, 5_000],
      [NOV, 15_000],
    ]);
    flats = [];
    // Flat 1: allocators; flat 2: allocators taken out on 15 September; flat 3: hot water only.
    for (const [i, f] of [
      { area: 60, m3: 4, alloc: 'working' },
      { area: 40, m3: 3, alloc: 'removed' },
      { area: 50, m3: 3, alloc: null },
    ].entries()) {
      const flat = await makeFlat(t.db, b, { name: String(i + 1), order: i + 1 });
      flats.push(flat.id);
      await t.db.query('UPDATE location SET area_m2 = $2 WHERE id = $1', [flat.id, f.area]);
      const hot = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.hotWaterMeter, installedAt: INSTALLED });
      await makeReadings(t.db, hot, [
        [SEP, 0],
        [OCT, 2],
        [NOV, 2 + f.m3],
      ]);
      if (f.alloc === null) continue;
      const alloc = await makeDevice(t.db, flat, {
        typeId: DEVICE_TYPE.allocator,
        ratingFactor: 1,
        installedAt: INSTALLED,
        removedAt: f.alloc === 'removed' ? MID_SEP : null,
      });
      await makeReadings(
        t.db,
        alloc,
        f.alloc === 'removed'
          ? [
              [SEP, 0],
              [MID_SEP, 40],
            ]
          : [
              [SEP, 0],
              [OCT, 50],
              [NOV, 350],
            ],
      );
    }
    await refreshMonthEnds(t.db, new Date('2026-11-20T10:00:00Z'));
    await setBuildingHeatMethod(t.db, caller, building, MONTH, METHOD);
  });

  it('values a flat whose allocators are out of service by area, and gives a flat without heating devices no figure', async () => {
    const st = await computeStatements(t.db, MONTH, { scope: null, parents: [building] });
    const [one, two, three] = st.map(heating);
    // V = 10 m³: Q_hw = 510; S = 10,000 − 510 = 9,490, by area over 150 m²: flat 2's 40 m² 2,530.667, flat 3's
    // 50 m² 3,163.333 (both "no device"); flat 1's allocators take the rest, 3,796.
    expect(one!.HeatBalance).toMatchObject({ Status: 'split', InputKwh: 10_000, HotWaterKwh: 510, NoDeviceKwh: 5_694 });
    expect(one!.Current.Value).toBe(3_796);
    expect([two!.Current.Value, two!.Current.Incomplete, two!.HeatParts!.NoDevice, two!.KwhMethod]).toEqual([
      2_530.667,
      false,
      2_530.667,
      'heatMethod',
    ]);
    // Flat 3 never had a heating device: no heating figure, only its hot water.
    expect(three).toBeUndefined();
    expect(st[2]!.Row.Kinds.map((k) => k.Kind)).toEqual(['hotWater']);
  });
});

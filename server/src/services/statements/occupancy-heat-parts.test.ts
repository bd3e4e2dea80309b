import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { DEVICE_TYPE, GROUP, type StatementHeatParts } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { dbKind, useDb } from '../../test/db.js';
import { makeBuilding, makeDevice, makeFlat, makeOccupancy, makeReadings, makeUser } from '../../test/factories.js';
import { heatMethod, OCTOBER_2026 } from '../../test/heat-method.js';
import type { Caller } from '../auth/caller.js';
import { liveBuildingRows } from '../billing/rows.js';
import { refreshMonthEnds } from '../data-quality/refresh-month-ends.js';
import { setBuildingHeatMethod } from '../heat-methods/heat-methods.js';
import { computeMoveValues } from '../occupancies/move-values.js';
import { computeStatements } from './figures.js';
import { splitMoves } from './occupancy-figures.js';
import { largestRemainder, splitHeatParts } from './occupancy-heat-parts.js';
import { renderOccupantPdf } from './pdf.js';

/*
 * A flat's heat parts by its building's method split among its occupants (docs/heat-method.md,
 * "Occupants"): area and norm parts by days, consumption parts by units.
 */

const FLAT: StatementHeatParts = {
  Consumption: 300,
  Base: 100.001,
  Common: 20,
  NoDevice: 0,
  HeatMeter: 0,
  Assigned: 10,
  Space: 430.001,
  HotWater: 51,
  Circulation: 80,
  Total: 561.001,
};

describe('splitting a flat’s heat parts among its occupants', () => {
  it('splits area and norm parts by days, consumption parts by units, hot-water heat by m³, adding up exactly', () => {
    // A: 14 days, a quarter of the allocators' units, two thirds of the hot water; B: 17 days.
    const [a, b] = splitHeatParts(FLAT, [
      { days: 14, heating: 1_000, hotWater: 20_000 },
      { days: 17, heating: 3_000, hotWater: 10_000 },
    ]);
    // Base 100.001 × 14/31 = 45.1617… and 54.8392…: the spare thousandth to the larger remainder (A).
    expect(a).toEqual({
      Consumption: 75,
      Base: 45.162,
      Common: 9.032,
      NoDevice: 0,
      HeatMeter: 0,
      Assigned: 2.5,
      Space: 131.694,
      HotWater: 34,
      Circulation: 36.129,
      Total: 201.823,
    });
    expect(b).toEqual({
      Consumption: 225,
      Base: 54.839,
      Common: 10.968,
      NoDevice: 0,
      HeatMeter: 0,
      Assigned: 7.5,
      Space: 298.307,
      HotWater: 17,
      Circulation: 43.871,
      Total: 359.178,
    });
  });

  it('falls back to days where a key is missing or adds up to nothing', () => {
    const [a, b] = splitHeatParts(FLAT, [
      { days: 10, heating: null, hotWater: 0 },
      { days: 20, heating: 5, hotWater: 0 },
    ]);
    expect([a!.Consumption, b!.Consumption]).toEqual([100, 200]);
    expect([a!.HotWater, b!.HotWater]).toEqual([17, 34]);
    expect(largestRemainder(1, [1, 1])).toEqual([1, 0]);
    expect(largestRemainder(10, [0, 0])).toEqual([0, 10]);
  });
});

const t = useDb();
const NOW = new Date('2026-11-20T10:00:00Z');
const MOVE = '2026-10-15T00:00:00+03:00';
const { SEP, OCT, NOV, INSTALLED } = OCTOBER_2026;
const METHOD = heatMethod({ CirculationNorm: 80, CommonShare: 0.1, BaseShare: 0.3 });

describe(`an occupant's heat parts by the building's method (${dbKind()})`, () => {
  let buildingId: number;
  let movedFlat: number;

  beforeAll(async () => {
    const operator = await makeUser(t.db, { groupId: GROUP.operator });
    const caller = { id: operator.id, username: operator.username, groupId: GROUP.operator, scope: null } as Caller;
    const b = await makeBuilding(t.db, { city: 'Alytus', street: 'Naujoji g.', number: '21' });
    buildingId = b.id;
    const meter = await makeDevice(t.db, b, { typeId: DEVICE_TYPE.buildingHeatMeter, installedAt: INSTALLED });
    await makeReadings(t.db, meter, [
      [SEP, 50_000],
      [OCT, 52_000],
      [NOV, 58_250.5],
    ]);
    // Flat 1: the move on the 15th, 120 of its 400 units and 1.5 of its 4 m³ before it; flat 2 one occupant.
    const flats = [
      { name: '1', area: 55.5, units: [120, 280], m3: [1.5, 2.5] },
      { name: '2', area: 63.2, units: [250, 350], m3: [2, 3] },
    ];
    for (const [i, f] of flats.entries()) {
      const flat = await makeFlat(t.db, b, { name: f.name, order: i + 1 });
      if (i === 0) movedFlat = flat.id;
      await t.db.query('UPDATE location SET area_m2 = $2 WHERE id = $1', [flat.id, f.area]);
      const alloc = await makeDevice(t.db, flat, {
        typeId: DEVICE_TYPE.allocator,
        ratingFactor: 1,
        installedAt: INSTALLED,
      });
      await makeReadings(t.db, alloc, [
        [SEP, 900],
        [OCT, 1000],
        [MOVE, 1000 + f.units[0]!],
        [NOV, 1000 + f.units[0]! + f.units[1]!],
      ]);
      const hot = await makeDevice(t.db, flat, { typeId: DEVICE_TYPE.hotWaterMeter, installedAt: INSTALLED });
      await makeReadings(t.db, hot, [
        [SEP, 90],
        [OCT, 100],
        [MOVE, 100 + f.m3[0]!],
        [NOV, 100 + f.m3[0]! + f.m3[1]!],
      ]);
    }
    await makeOccupancy(t.db, movedFlat, { name: 'Rūta Pirmoji', clientCode: 'HP-OCC-1', moveOut: '2026-10-15' });
    await makeOccupancy(t.db, movedFlat, { name: 'Tomas Antrasis', clientCode: 'HP-OCC-2', moveIn: '2026-10-15' });
    await refreshMonthEnds(t.db, NOW);
    await computeMoveValues(t.db, { flatIds: [movedFlat] });
    await setBuildingHeatMethod(t.db, caller, b.id, '2026-09', METHOD);
  });

  it('gives each occupant their parts, adding up to the flat’s; their figure is their space heating', async () => {
    const st = await computeStatements(t.db, '2026-10', { scope: null, parents: [buildingId] });
    const flat = st.find((s) => s.Row.FlatId === movedFlat)!.Row;
    const heating = flat.Kinds.find((k) => k.Kind === 'heating')!;
    const p = heating.HeatParts!;
    expect(heating.HeatBalance?.Status).toBe('split');
    expect(p.Consumption).toBeGreaterThan(0);
    const occupants = (await splitMoves(t.db, '2026-10', [flat])).get(movedFlat)!;
    const parts = occupants.map((o) => o.Kinds.find((k) => k.Kind === 'heating')!.HeatParts!);
    // 14 and 17 days; 120 and 280 units; 1.5 and 2.5 m³.
    expect(parts).toEqual(
      splitHeatParts(p, [
        { days: 14, heating: 120, hotWater: 1.5 },
        { days: 17, heating: 280, hotWater: 2.5 },
      ]),
    );
    for (const key of Object.keys(p) as (keyof StatementHeatParts)[])
      expect(Math.round((parts[0]![key] + parts[1]![key]) * 1000)).toBe(Math.round(p[key] * 1000));
    // By value: the consumption part by units 120 : 280, the base by days 14 : 17.
    expect(parts[0]!.Consumption).toBeCloseTo((p.Consumption * 120) / 400, 2);
    expect(parts[0]!.Base).toBeCloseTo((p.Base * 14) / 31, 2);
    expect(parts[0]!.HotWater).toBeCloseTo((p.HotWater * 1.5) / 4, 2);
    expect(occupants.map((o) => o.Kinds.find((k) => k.Kind === 'heating')!.Current.Value)).toEqual(
      parts.map((x) => x.Space),
    );
    // The billing export's occupant rows and the occupant's PDF carry the same numbers.
    const rows = await liveBuildingRows(t.db, '2026-10', buildingId);
    const billed = rows.filter((r) => r.Line === 'occupancy' && r.Kind === 'heating');
    expect(
      billed.map((r) => [r.AccountCode, r.HeatSpaceKwh, r.HeatConsumptionKwh, r.HotWaterHeatKwh, r.HeatTotalKwh]),
    ).toEqual([
      ['HP-OCC-1', parts[0]!.Space, parts[0]!.Consumption, parts[0]!.HotWater, parts[0]!.Total],
      ['HP-OCC-2', parts[1]!.Space, parts[1]!.Consumption, parts[1]!.HotWater, parts[1]!.Total],
    ]);
    const statement = st.find((s) => s.Row.FlatId === movedFlat)!;
    const dir = mkdtempSync(path.join(tmpdir(), 'occupant-parts-'));
    try {
      const chunks: Buffer[] = [];
      for await (const c of renderOccupantPdf(statement, occupants[1]!, 'en'))
        chunks.push(Buffer.from(c as Uint8Array));
      const file = path.join(dir, 'occupant.pdf');
      writeFileSync(file, Buffer.concat(chunks));
      // The occupant's parts drawn as a bar, its legend each part's number, name and value (docs/statements.md).
      const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
      const f = (v: number) => v.toLocaleString('en-GB', { minimumFractionDigits: 3, maximumFractionDigits: 3 });
      const q = parts[1]!;
      expect(text).toContain(`Your part by the building's method: ${f(q.Total)} kWh of heat in all, the whole bar`);
      for (const part of [
        `1 hot-water heat ${f(q.HotWater)}`,
        `2 circulation ${f(q.Circulation)}`,
        `3 common areas ${f(q.Common)}`,
        `6 base ${f(q.Base)}`,
        `7 by consumption ${f(q.Consumption)}`,
      ])
        expect(text).toContain(part);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

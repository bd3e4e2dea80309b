import type { FlatStatement } from '@rodmenys/contract';
import { beforeAll, describe, expect, it } from 'vitest';
import { refreshMonthEnds } from '../services/data-quality/refresh-month-ends.js';
import { heatMethodsOf } from '../services/heat-methods/heat-methods.js';
import { computeStatements } from '../services/statements/figures.js';
import { dbKind, useDb } from '../test/db.js';
import { type DemoCases, readDemoCases } from './cases.js';
import { seedDemo } from './generate.js';

/*
 * The demo's heat methods (docs/heat-method.md): October 2026, the month the heating season starts
 * in (the 15th), shows every part of the split in the norm building (a corner flat with a factor,
 * a flat raised to the minimum, a flat whose allocators never reported valued by area) and the
 * meter building's hot water and circulation from its hot-water heat meter and input meter.
 */

const NOW = new Date('2026-11-20T10:00:00Z');
const MONTH = '2026-10';
const t = useDb();
let cases: DemoCases;

const heating = (s: FlatStatement) => s.Row.Kinds.find((k) => k.Kind === 'heating')!;

beforeAll(async () => {
  await seedDemo(t.db, {
    size: { buildings: 3, flatsPerBuilding: [8, 9], months: 13, intervalHours: 12 },
    seed: 7,
    now: NOW,
  });
  await refreshMonthEnds(t.db, NOW);
  cases = (await readDemoCases(t.db))!;
}, 180_000);

describe(`the demo's heat methods (${dbKind()})`, () => {
  it('the norm building fills every part: hot water, circulation, common, base, consumption, assigned, by area', async () => {
    const norm = cases.heat!.norm!;
    const st = await computeStatements(t.db, MONTH, { scope: null, parents: [norm.buildingId] });
    const k = st.map(heating);
    const balance = k[0]!.HeatBalance!;
    expect(balance).toMatchObject({ Method: 'norm', Status: 'split' });
    for (const part of [
      'HotWaterKwh',
      'CirculationKwh',
      'CommonKwh',
      'NoDeviceKwh',
      'BaseKwh',
      'ConsumptionKwh',
    ] as const)
      expect([part, balance[part]! > 0]).toEqual([part, true]);
    expect(balance.HeatMeterKwh).toBe(0);
    const of = (flat: number) => heating(st.find((s) => s.Row.FlatId === flat)!);
    // The flat raised to the minimum, the refused flat by area, and the corner flat by its factor.
    expect(of(norm.minimumFlat).HeatParts!.Assigned).toBeGreaterThan(0);
    expect(of(norm.refusedFlat).HeatParts!.NoDevice).toBeGreaterThan(0);
    expect(of(norm.refusedFlat).Current.Value).toBe(of(norm.refusedFlat).HeatParts!.Space);
    expect(of(norm.cornerFlat).HeatParts!.Consumption).toBeGreaterThan(0);
    const version = (await heatMethodsOf(t.db, [norm.buildingId])).get(norm.buildingId)!.at(-1)!;
    expect(version.Flats).toEqual([{ FlatId: norm.cornerFlat, PositionFactor: 1.15, CirculationClass: null }]);
    expect(version.Seasons.at(-1)).toEqual({ From: '2026-10-15', To: null });
    // Every flat billed, and the flats' totals add up to the input.
    expect(k.every((x) => x.KwhMethod === 'heatMethod' && x.Current.Value !== null)).toBe(true);
    const total = k.reduce((a, x) => a + Math.round(x.HeatParts!.Total * 1000), 0);
    expect(total).toBe(Math.round(balance.InputKwh! * 1000));
  });

  it('the meter building takes its hot water from the hot-water heat meter and its volume from the input meter', async () => {
    const meter = cases.heat!.meter!;
    const st = await computeStatements(t.db, MONTH, { scope: null, parents: [meter.buildingId] });
    const balance = heating(st[0]!).HeatBalance!;
    expect(balance).toMatchObject({ Method: 'meter', Status: 'split' });
    expect(balance.HotWaterKwh).toBeGreaterThan(0);
    expect(balance.CirculationKwh).toBeGreaterThan(0);
    // V is the input meter's: the flats' m³ are less than it (the losses).
    const flatsM3 = st.reduce((a, s) => a + (s.Row.Kinds.find((x) => x.Kind === 'hotWater')?.Current.Value ?? 0), 0);
    expect(balance.HotWaterM3).toBeGreaterThan(0);
    expect(balance.HotWaterLossesM3).toBeCloseTo(balance.HotWaterM3! - flatsM3, 2);
  });
});

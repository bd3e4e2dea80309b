import { describe, expect, it } from 'vitest';
import { building, flat, method } from './fixtures.js';
import { splitBuildingMonth } from './split.js';
import type { FlatParts, SplitResult } from './types.js';

/*
 * Flats with their own heat meters at the edges of the split (docs/heat-method.md): the minimum
 * rule where every device flat has a heat meter, a heat meter's kWh in a month without season
 * days, a flat without a floor area outside the season, and the rounding of assigned heat.
 */

const col = (r: SplitResult, k: keyof FlatParts) => r.flats!.map((f) => f[k]);
const meterFlat = (id: number, area: number | null, kwh: number, m3 = 0) =>
  flat(id, area ?? 0, null, m3, { heating: 'energy', kwh, area });

describe('the minimum rule in a building whose device flats all have heat meters', () => {
  // 3,400 kWh in a season month, circulation 4 × 100, S = 3,000, common 10 % = 300; four flats of
  // 50 m² at 100, 500, 600 and 800 kWh: H = 2,000, the remainder R = 700.
  const m = method({ circulationNorm: 100, commonShare: 0.1, minimumShare: 0.7 });
  const b = building({
    inputKwh: 3400,
    flats: [meterFlat(1, 50, 100), meterFlat(2, 50, 500), meterFlat(3, 50, 600), meterFlat(4, 50, 800)],
  });

  it('the average leaves the remainder out: (2,700 − 700) / 200 = 10 kWh/m², flat 1 raised to 350 kWh', () => {
    const r = splitBuildingMonth(m, b);
    expect(r.status).toBe('split');
    // The line 0.7 × 10 × 50 = 350: flat 1 is raised by 250, taken from R.
    expect(col(r, 'assigned')).toEqual([250, 0, 0, 0]);
    // The common part left: 300 + 700 − 250 = 750, 187.5 per flat.
    expect(col(r, 'common')).toEqual([187.5, 187.5, 187.5, 187.5]);
    expect(col(r, 'heatMeter')).toEqual([100, 500, 600, 800]);
    expect(col(r, 'circulation')).toEqual([100, 100, 100, 100]);
    expect(col(r, 'total')).toEqual([637.5, 787.5, 887.5, 1087.5]);
    expect(r.parts).toEqual({
      hotWater: 0,
      circulation: 400,
      common: 1000,
      noDevice: 0,
      heatMeter: 2000,
      base: 0,
      consumption: 0,
    });
  });

  it('no flat below the line: nothing is raised, the remainder stays common', () => {
    // k_min 0.4: the line is 200 kWh; flat 1's 100 kWh are below it, raised by 100 only.
    const r = splitBuildingMonth({ ...m, minimumShare: 0.4 }, b);
    expect(col(r, 'assigned')).toEqual([100, 0, 0, 0]);
    const none = splitBuildingMonth(
      { ...m, minimumShare: 0.7 },
      building({ inputKwh: 3400, flats: [1, 2, 3, 4].map((id) => meterFlat(id, 50, 500)) }),
    );
    // H = 2,000 again, every flat at 10 kWh/m² (the average): none below 7.
    expect(col(none, 'assigned')).toEqual([0, 0, 0, 0]);
    expect(col(none, 'common')).toEqual([250, 250, 250, 250]);
  });
});

describe("a flat heat meter's kWh in a month without season days", () => {
  // July: 2,000 kWh, V = 30 m³ (10 per flat), q = 51: hot water 1,530; flat 1's meter 27 kWh.
  const july = (heatMeterKwh: number, over: Parameters<typeof building>[0] = {}) =>
    building({
      month: '2026-07',
      inputKwh: 2000,
      flats: [meterFlat(1, 50, heatMeterKwh, 10), flat(2, 50, 0, 10), flat(3, 100, 0, 10)],
      ...over,
    });

  it("are that flat's heat-meter part, taken before the circulation: 2,000 − 1,530 − 27 = 443", () => {
    const r = splitBuildingMonth(method(), july(27));
    expect(r.status).toBe('split');
    expect(r.parts).toEqual({
      hotWater: 1530,
      circulation: 443,
      common: 0,
      noDevice: 0,
      heatMeter: 27,
      base: 0,
      consumption: 0,
    });
    expect(col(r, 'hotWater')).toEqual([510, 510, 510]);
    expect(col(r, 'circulation')).toEqual([147.667, 147.667, 147.666]);
    expect(col(r, 'heatMeter')).toEqual([27, 0, 0]);
    expect(col(r, 'space')).toEqual([27, 0, 0]);
    // The meter's flat pays 510 + 147.667 + 27.
    expect(col(r, 'total')).toEqual([684.667, 657.667, 657.666]);
  });

  it('with the hot-water heat meter (meter): taken from the circulation beyond it', () => {
    // The meter measured 1,800 (Q_hw 1,530 + 270); the input's 200 beyond it less the 27 kWh is circulation too.
    const r = splitBuildingMonth(method({ hotWaterHeat: 'meter' }), july(27, { hotWaterHeatMeter: { kwh: 1800 } }));
    expect(r.parts).toMatchObject({ hotWater: 1530, circulation: 443, heatMeter: 27 });
  });

  it('with formulaDE: taken before the hot water, which is the rest of the input', () => {
    // V = 10 m³: the estimate 2.5 × 10 × 50 = 1,250 is below 2,000 − 27; the hot water is 1,973, by m³.
    const flats = [meterFlat(1, 50, 27, 4), flat(2, 50, 0, 3), flat(3, 100, 0, 3)];
    const r = splitBuildingMonth(method({ hotWaterHeat: 'formulaDE' }), july(27, { flats }));
    expect(r.parts).toMatchObject({ hotWater: 1973, circulation: 0, heatMeter: 27 });
    expect(col(r, 'total')).toEqual([816.2, 591.9, 591.9]);
  });

  it('only more than the input less the hot water is unbalanced', () => {
    expect(splitBuildingMonth(method(), july(470)).status).toBe('split');
    expect(splitBuildingMonth(method(), july(470)).parts).toMatchObject({ circulation: 0, heatMeter: 470 });
    expect(splitBuildingMonth(method(), july(470.001))).toMatchObject({
      status: 'unbalanced',
      reason: 'heatMetersAboveSpace',
      flats: null,
    });
    const formula = method({ hotWaterHeat: 'formulaDE' });
    // The estimate is 1,250 kWh (10 m³): up to 750 kWh of heat meters fit.
    const at = (kwh: number) => july(0, { flats: [meterFlat(1, 50, kwh, 4), flat(2, 50, 0, 3), flat(3, 100, 0, 3)] });
    expect(splitBuildingMonth(formula, at(750)).status).toBe('split');
    expect(splitBuildingMonth(formula, at(750.001)).reason).toBe('heatMetersAboveSpace');
  });

  it('no minimum outside the season: k_min raises nobody', () => {
    const r = splitBuildingMonth(method({ minimumShare: 0.9, commonShare: 0.2 }), july(27));
    expect(col(r, 'assigned')).toEqual([0, 0, 0]);
    expect(col(r, 'common')).toEqual([0, 0, 0]);
  });

  it('a month the season starts in still takes the heat meters from the season’s space heating', () => {
    const oct = method({ seasons: [{ from: '2026-10-15', to: null }], circulationNorm: 0 });
    const r = splitBuildingMonth(oct, {
      ...july(27, { month: '2026-10', inputKwh: 6000 }),
      inputUpTo: new Map([['2026-10-15', 1000]]),
    });
    // Q_hw 1,530 (14/31 of it before the 15th); the rest before it is circulation, S from the 15th.
    expect(r.status).toBe('split');
    expect(r.parts!.circulation).toBeCloseTo(1000 - (1530 * 14) / 31, 2);
    expect(r.parts!.heatMeter).toBe(27);
  });
});

describe('a flat without a floor area', () => {
  const noArea = (month: string) =>
    building({
      month,
      inputKwh: 2000,
      flats: [flat(1, 50, 0, 10), { ...flat(2, 50, 0, 10), area: null }, flat(3, 100, 0, 10)],
    });

  it('outside the season splits the month: the area is no key there', () => {
    const r = splitBuildingMonth(method(), noArea('2026-07'));
    expect(r).toMatchObject({ status: 'split', missing: [] });
    expect(col(r, 'total')).toEqual([666.667, 666.667, 666.666]);
  });

  it('in a month with season days makes it incomplete', () => {
    expect(splitBuildingMonth(method(), noArea('2026-01'))).toMatchObject({
      status: 'incomplete',
      missing: ['area:2'],
    });
    const oct = method({ seasons: [{ from: '2026-10-31', to: null }] });
    const oneDay = { ...noArea('2026-10'), inputUpTo: new Map([['2026-10-31', 1900]]) };
    expect(splitBuildingMonth(oct, oneDay).missing).toEqual(['area:2']);
  });
});

describe('rounding the part that holds assigned heat', () => {
  it('a raised flat whose own part is 0: its assigned heat is capped at its whole share, never −0.001 left', () => {
    // S = 5,204 over 192 m²: flat 1's line is 0.3 × 5,204 / 192 × 74 = 601.7125 kWh, all of it assigned.
    const flats = [flat(1, 74, 0, 0), flat(2, 96, 302, 0), flat(3, 22, 396, 0)];
    const r = splitBuildingMonth(
      method({ circulationNorm: 0, minimumShare: 0.3 }),
      building({ inputKwh: 5204, flats }),
    );
    // Its whole share of the consumption part (own + assigned) comes to 601.712 by the largest remainder;
    // 601.7125 alone would round to 601.713 and leave its own consumption at −0.001.
    expect(col(r, 'assigned')).toEqual([601.712, 0, 0]);
    expect(col(r, 'consumption')).toEqual([0, 1991.248, 2611.04]);
    expect(col(r, 'space')).toEqual([601.712, 1991.248, 2611.04]);
    expect(r.parts!.consumption).toBe(5204);
  });
});

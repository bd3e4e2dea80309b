import { describe, expect, it } from 'vitest';
import { building, flat, method } from './fixtures.js';
import { splitBuildingMonth } from './split.js';
import type { FlatParts, SplitResult } from './types.js';

/** One field of every flat, in order. */
const col = (r: SplitResult, k: keyof FlatParts) => r.flats!.map((f) => f[k]);

describe('splitBuildingMonth: hot water and circulation', () => {
  it('norm: Q_hw = 51 × V by the flats m³, circulation 80 per flat, the rest by Qrad', () => {
    const r = splitBuildingMonth(method(), building());
    expect(r.status).toBe('split');
    expect(r.parts).toEqual({
      hotWater: 510,
      circulation: 240,
      common: 0,
      noDevice: 0,
      heatMeter: 0,
      base: 0,
      consumption: 9250,
    });
    expect(col(r, 'hotWater')).toEqual([102, 153, 255]);
    expect(col(r, 'circulation')).toEqual([80, 80, 80]);
    expect(col(r, 'consumption')).toEqual([925, 2775, 5550]);
    expect(col(r, 'total')).toEqual([1107, 3008, 5885]);
    expect(r.hotWaterM3).toBe(10);
    expect(r.hotWaterLossesM3).toBe(0);
  });

  it("norm: a flat's circulation class replaces the building's norm", () => {
    const b = building();
    const flats = [{ ...b.flats[0]!, circulationClass: 240 }, b.flats[1]!, b.flats[2]!];
    const r = splitBuildingMonth(method(), { ...b, flats });
    expect(col(r, 'circulation')).toEqual([240, 80, 80]);
    expect(r.parts!.consumption).toBe(10_000 - 510 - 400);
  });

  it("a hot-water input meter gives V (12 m³: 2 m³ of losses), Q_hw still by the flats' m³", () => {
    const r = splitBuildingMonth(method(), building({ hotWaterInput: { m3: 12 } }));
    expect(r.hotWaterM3).toBe(12);
    expect(r.hotWaterLossesM3).toBe(2);
    expect(col(r, 'hotWater')).toEqual([122.4, 183.6, 306]);
    expect(col(r, 'consumption')).toEqual([914.8, 2744.4, 5488.8]);
  });

  it('meter: the hot-water heat meter measures Q_hw + Q_circ; circulation = meter − Q_hw, equally', () => {
    const r = splitBuildingMonth(method({ hotWaterHeat: 'meter' }), building({ hotWaterHeatMeter: { kwh: 900 } }));
    expect(r.parts).toMatchObject({ hotWater: 510, circulation: 390, consumption: 9100 });
    expect(col(r, 'circulation')).toEqual([130, 130, 130]);
    expect(col(r, 'consumption')).toEqual([910, 2730, 5460]);
  });

  it('formulaDE: 2.5 × V × (60 − 10) and no separate circulation', () => {
    const r = splitBuildingMonth(method({ hotWaterHeat: 'formulaDE' }), building());
    expect(r.parts).toMatchObject({ hotWater: 1250, circulation: 0, consumption: 8750 });
    expect(col(r, 'hotWater')).toEqual([250, 375, 625]);
  });

  it('out of the season: no space heating, the input beyond Q_hw is circulation, equally', () => {
    const r = splitBuildingMonth(method(), building({ month: '2026-07', inputKwh: 1000 }));
    expect(r.parts).toEqual({
      hotWater: 510,
      circulation: 490,
      common: 0,
      noDevice: 0,
      heatMeter: 0,
      base: 0,
      consumption: 0,
    });
    // 490 / 3 = 163.333…: the spare thousandth goes to the first flat (ties by flat order).
    expect(col(r, 'circulation')).toEqual([163.334, 163.333, 163.333]);
  });

  it('across the season start (15 October): the month split at the input value of that day', () => {
    const flats = [flat(1, 50, 100, 6.2, { circulationClass: 62 }), flat(2, 50, 300, 9.3), flat(3, 100, 600, 15.5)];
    const r = splitBuildingMonth(method({ seasons: [{ from: '2026-10-15', to: null }], circulationNorm: 62 }), {
      ...building({ month: '2026-10', inputKwh: 6500, flats }),
      inputUpTo: new Map([['2026-10-15', 1500]]),
    });
    expect(r.periods).toEqual([
      { from: '2026-10-01', to: '2026-10-14', days: 14, inSeason: false, inputKwh: 1500 },
      { from: '2026-10-15', to: '2026-10-31', days: 17, inSeason: true, inputKwh: 5000 },
    ]);
    // Q_hw = 51 × 31 = 1,581 (714 before, 867 after); circulation 1,500 − 714 = 786 before, 3 × 62 × 17/31 = 102 after.
    expect(r.parts).toMatchObject({ hotWater: 1581, circulation: 888, consumption: 4031 });
    expect(col(r, 'circulation')).toEqual([296, 296, 296]);
    expect(col(r, 'consumption')).toEqual([403.1, 1209.3, 2418.6]);
    expect(col(r, 'total')).toEqual([1015.3, 1979.6, 3505.1]);
  });
});

describe('splitBuildingMonth: space heating', () => {
  it('common share 10 %: 925 kWh by area among all flats', () => {
    const r = splitBuildingMonth(method({ commonShare: 0.1 }), building());
    expect(col(r, 'common')).toEqual([231.25, 231.25, 462.5]);
    expect(col(r, 'consumption')).toEqual([832.5, 2497.5, 4995]);
  });

  it('base share 30 %: by area among the allocator flats, the rest by Qrad', () => {
    const r = splitBuildingMonth(method({ baseShare: 0.3 }), building());
    expect(col(r, 'base')).toEqual([693.75, 693.75, 1387.5]);
    expect(col(r, 'consumption')).toEqual([647.5, 1942.5, 3885]);
  });

  it('a position factor of 1.2 multiplies the flat’s Qrad in the key; the spare thousandth to the largest remainder', () => {
    const b = building();
    const flats = [{ ...b.flats[0]!, positionFactor: 1.2 }, b.flats[1]!, b.flats[2]!];
    const r = splitBuildingMonth(method(), { ...b, flats });
    expect(col(r, 'consumption')).toEqual([1088.235, 2720.588, 5441.177]);
  });

  it('a flat whose allocators have no value is valued by area at the average; the rest is billed', () => {
    const b = building();
    const flats = [b.flats[0]!, { ...b.flats[1]!, qrad: null }, b.flats[2]!];
    const r = splitBuildingMonth(method(), { ...b, flats });
    expect(r.status).toBe('split');
    expect(col(r, 'noDevice')).toEqual([0, 2312.5, 0]);
    expect(col(r, 'consumption')).toEqual([991.071, 0, 5946.429]);
  });

  it('a flat without any heating device is valued by area too', () => {
    const b = building();
    const flats = [b.flats[0]!, { ...b.flats[1]!, heating: null, qrad: null }, b.flats[2]!];
    expect(col(splitBuildingMonth(method(), { ...b, flats }), 'noDevice')).toEqual([0, 2312.5, 0]);
  });

  it('a heat-meter flat pays its metered kWh; the allocators share the rest', () => {
    const b = building();
    const flats = [b.flats[0]!, { ...b.flats[1]!, heating: 'energy' as const, qrad: null, kwh: 2000 }, b.flats[2]!];
    const r = splitBuildingMonth(method(), { ...b, flats });
    expect(col(r, 'heatMeter')).toEqual([0, 2000, 0]);
    expect(col(r, 'consumption')).toEqual([1035.714, 0, 6214.286]);
  });
});

describe('splitBuildingMonth: the minimum rule', () => {
  it('k_min 0.5: flat 1 is raised to 23.125 kWh/m², the raise taken from the others in proportion', () => {
    const r = splitBuildingMonth(method({ minimumShare: 0.5 }), building());
    expect(col(r, 'assigned')).toEqual([231.25, 0, 0]);
    expect(col(r, 'consumption')).toEqual([925, 2697.917, 5395.833]);
    expect(col(r, 'space')).toEqual([1156.25, 2697.917, 5395.833]);
  });

  it('needs a second round when a giver falls below the line', () => {
    const flats = [flat(1, 100, 10, 0), flat(2, 100, 240, 0), flat(3, 100, 750, 0)];
    const r = splitBuildingMonth(
      method({ minimumShare: 0.7, circulationNorm: 0 }),
      building({ inputKwh: 3000, flats }),
    );
    // Round 1 raises flat 1 (30 → 700); flat 2 falls from 720 to 557.576; round 2 raises it.
    expect(col(r, 'assigned')).toEqual([670, 142.424, 0]);
    expect(col(r, 'consumption')).toEqual([30, 557.576, 1600]);
    expect(col(r, 'space')).toEqual([700, 700, 1600]);
  });

  it('heat-meter flats only: the remainder is common, and raises come out of it', () => {
    const meters = [
      flat(1, 50, null, 0, { heating: 'energy', kwh: 3000 }),
      flat(2, 50, null, 0, { heating: 'energy', kwh: 5000 }),
    ];
    const b = building({ flats: meters });
    const m = { circulationNorm: 0 };
    expect(col(splitBuildingMonth(method(m), b), 'common')).toEqual([1000, 1000]);
    // The average leaves the remainder (2,000) out: (10,000 − 2,000) / 100 m² = 80, the line 0.8 × 80 × 50 = 3,200.
    const r = splitBuildingMonth(method({ ...m, minimumShare: 0.8 }), b);
    expect(col(r, 'assigned')).toEqual([200, 0]);
    expect(col(r, 'common')).toEqual([900, 900]);
    expect(col(r, 'space')).toEqual([4100, 5900]);
    expect(r.parts).toMatchObject({ common: 2000, heatMeter: 8000 });
  });

  it('raises that cannot be covered leave the month unbalanced', () => {
    const meters = [
      flat(1, 50, null, 0, { heating: 'energy', kwh: 1000 }),
      flat(2, 50, null, 0, { heating: 'energy', kwh: 8000 }),
    ];
    const r = splitBuildingMonth(method({ circulationNorm: 0, minimumShare: 0.5 }), building({ flats: meters }));
    expect(r).toMatchObject({ status: 'unbalanced', reason: 'minimumNotCovered', flats: null, parts: null });
  });
});

describe('splitBuildingMonth: unbalanced and incomplete', () => {
  it.each([
    ['hotWaterAboveInput', method(), building({ inputKwh: 400 })],
    ['circulationAboveInput', method(), building({ inputKwh: 600 })],
    ['hotWaterAboveMeter', method({ hotWaterHeat: 'meter' }), building({ hotWaterHeatMeter: { kwh: 400 } })],
    [
      'meterAboveInput',
      method({ hotWaterHeat: 'meter' }),
      building({ inputKwh: 800, hotWaterHeatMeter: { kwh: 900 } }),
    ],
    ['negativeValue', method(), building({ inputKwh: -5 })],
  ] as const)('%s', (reason, m, b) => {
    expect(splitBuildingMonth(m, b)).toMatchObject({ status: 'unbalanced', reason, flats: null });
  });

  it('heatMetersAboveSpace: a heat meter measured more than the space heating', () => {
    const b = building();
    const flats = [b.flats[0]!, { ...b.flats[1]!, heating: 'energy' as const, kwh: 9300 }, b.flats[2]!];
    expect(splitBuildingMonth(method(), { ...b, flats })).toMatchObject({
      status: 'unbalanced',
      reason: 'heatMetersAboveSpace',
    });
  });

  it('incomplete when the input, a flat’s hot water, the hot-water heat meter or the value at the season start is missing', () => {
    expect(splitBuildingMonth(method(), building({ inputKwh: null }))).toMatchObject({
      status: 'incomplete',
      missing: ['input'],
    });
    const b = building();
    const flats = [b.flats[0]!, { ...b.flats[1]!, hotWaterM3: null }, b.flats[2]!];
    expect(splitBuildingMonth(method(), { ...b, flats }).missing).toEqual(['hotWaterM3:2']);
    expect(splitBuildingMonth(method({ hotWaterHeat: 'meter' }), b).missing).toEqual(['hotWaterHeatMeter']);
    const oct = method({ seasons: [{ from: '2026-10-15', to: null }] });
    expect(splitBuildingMonth(oct, building({ month: '2026-10' })).missing).toEqual(['inputAt:2026-10-15']);
  });
});

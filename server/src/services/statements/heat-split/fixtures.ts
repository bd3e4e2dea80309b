import type { HeatMethod, SplitFlat, SplitInput } from './types.js';

/* Hand-built buildings for the split's tests (docs/heat-method.md has the worked example). */

/** A method with every option off: norm hot water at 51 kWh/m³, 80 kWh circulation, a season all winter. */
export const method = (over: Partial<HeatMethod> = {}): HeatMethod => ({
  hotWaterHeat: 'norm',
  kwhPerM3: 51,
  circulationNorm: 80,
  hotWaterTemperature: 60,
  districtHeat: false,
  seasons: [{ from: '2025-10-15', to: '2026-04-30' }],
  commonShare: 0,
  baseShare: 0,
  minimumShare: 0,
  ...over,
});

/** An allocator flat. */
export const flat = (
  id: number,
  area: number,
  qrad: number | null,
  m3: number,
  over: Partial<SplitFlat> = {},
): SplitFlat => ({
  id,
  area,
  heating: 'allocator',
  qrad,
  kwh: null,
  hotWaterM3: m3,
  positionFactor: 1,
  circulationClass: null,
  ...over,
});

/**
 * Three allocator flats (50, 50 and 100 m²; Qrad 100, 300, 600; hot water 2, 3, 5 m³) and an input
 * of 10,000 kWh in January 2026: Q_hw = 51 × 10 = 510, Q_circ = 3 × 80 = 240, S = 9,250.
 */
export const building = (over: Partial<SplitInput> = {}): SplitInput => ({
  month: '2026-01',
  inputKwh: 10_000,
  inputUpTo: new Map(),
  hotWaterInput: null,
  hotWaterHeatMeter: null,
  flats: [flat(1, 50, 100, 2), flat(2, 50, 300, 3), flat(3, 100, 600, 5)],
  ...over,
});

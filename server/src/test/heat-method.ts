import type { HeatMethodBody } from '@rodmenys/contract';

/** The month the heat-method tests bill, and the month starts around it in the provider's zone (Vilnius). */
export const OCTOBER_2026 = {
  MONTH: '2026-10',
  SEP: '2026-09-01T00:00:00+03:00',
  OCT: '2026-10-01T00:00:00+03:00',
  NOV: '2026-11-01T00:00:00+02:00',
  /** Devices installed long before, so every month around October is whole. */
  INSTALLED: '2025-01-01T00:00:00+02:00',
} as const;

/**
 * A building's method (docs/heat-method.md) for a test: norm hot water at 51 kWh/m³, the season from
 * 1 September on, no circulation, shares or minimum, so each part follows from the devices alone;
 * `changes` set what the test is about.
 */
export const heatMethod = (changes: Partial<HeatMethodBody> = {}): HeatMethodBody => ({
  HotWaterHeat: 'norm',
  KwhPerM3: 51,
  CirculationNorm: 0,
  HotWaterTemperature: 60,
  DistrictHeat: true,
  Seasons: [{ From: '2026-09-01', To: null }],
  CommonShare: 0,
  BaseShare: 0,
  MinimumShare: 0,
  Flats: [],
  ...changes,
});

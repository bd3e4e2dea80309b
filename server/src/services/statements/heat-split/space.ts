import type { HeatMethod, SplitFlat, UnbalancedReason } from './types.js';

/*
 * Steps 2–5 of the split (docs/heat-method.md): the season's space heating S among the flats:
 * the common part by area, flats without a working device by area at the building's average,
 * heat-meter flats as metered, the allocator flats' base part by area and consumption part by
 * Qrad × position factor. Exact amounts per flat, in the flats' order.
 */

/** The space heating's parts per flat. */
export interface Space {
  common: number[];
  /** The part of `common` that is step 4's remainder in a building without allocator flats. */
  commonRest: number[];
  noDevice: number[];
  heatMeter: number[];
  base: number[];
  consumption: number[];
  /**
   * The minimum rule's average per m²: the flats' space heating without common, over all flats'
   * area, i.e. (S − common − step 4's remainder) / area (docs/heat-method.md, step 6).
   */
  averagePerM2: number;
  /** Per flat: allocators or a heat meter with a value in the month (a device flat). */
  working: ('allocator' | 'energy' | null)[];
}

const sum = (xs: readonly number[]) => xs.reduce((a, x) => a + x, 0);

/** `total` among the flats picked by `on`, in proportion to `weight`; equally among them when the weights add to 0. */
export function byWeight(total: number, weight: readonly number[], on: readonly boolean[]): number[] {
  const w = weight.map((x, i) => (on[i] ? x : 0));
  const sw = sum(w);
  const n = on.filter(Boolean).length;
  if (n === 0) return w.map(() => 0);
  return w.map((x, i) => (!on[i] ? 0 : sw > 0 ? (total * x) / sw : total / n));
}

/** Whether a flat's heating device works in the month: allocators or a heat meter with a value. */
export const workingOf = (f: SplitFlat) =>
  f.heating === 'allocator' && f.qrad !== null
    ? 'allocator'
    : f.heating === 'energy' && f.kwh !== null
      ? 'energy'
      : null;

/** Steps 2–5; unbalanced when the heat meters measured more than is left for them. */
export function spaceOf(m: HeatMethod, flats: readonly SplitFlat[], s: number): Space | UnbalancedReason {
  const area = flats.map((f) => f.area ?? 0);
  const all = flats.map(() => true);
  const working = flats.map(workingOf);
  const common = byWeight(m.commonShare * s, area, all);
  const afterCommon = s - sum(common);
  const allArea = sum(area);
  const noDevice = byWeight(afterCommon, area, all).map((x, i) => (working[i] === null ? x : 0));
  const heatMeter = flats.map((f, i) => (working[i] === 'energy' ? f.kwh! : 0));
  let rest = afterCommon - sum(noDevice) - sum(heatMeter);
  if (rest < -1e-9 * Math.max(1, s)) return 'heatMetersAboveSpace';
  rest = Math.max(0, rest);
  const alloc = working.map((w) => w === 'allocator');
  const zero = flats.map(() => 0);
  if (!alloc.some(Boolean)) {
    // Only heat-meter flats (and flats without a device) left: the rest is common needs, so the
    // minimum's average leaves it out with the common part.
    const commonRest = byWeight(rest, area, all);
    const averagePerM2 = allArea > 0 ? (afterCommon - rest) / allArea : 0;
    return {
      common: common.map((c, i) => c + commonRest[i]!),
      commonRest,
      noDevice,
      heatMeter,
      base: zero,
      consumption: zero,
      averagePerM2,
      working,
    };
  }
  const key = flats.map((f, i) => (alloc[i] ? (f.qrad ?? 0) * f.positionFactor : 0));
  const keySum = sum(key.filter((_, i) => alloc[i]));
  // The allocators counted nothing in the season: all of their share by area.
  const baseShare = keySum > 0 ? m.baseShare : 1;
  const base = byWeight(baseShare * rest, area, alloc);
  const consumption = keySum > 0 ? byWeight(rest - sum(base), key, alloc) : zero;
  const averagePerM2 = allArea > 0 ? afterCommon / allArea : 0;
  return { common, commonRest: zero, noDevice, heatMeter, base, consumption, averagePerM2, working };
}

/**
 * A month without season days: no space heating, so no common, no-device or allocator part and no
 * minimum; a flat heat meter's kWh (a towel rail, a radiator left on) are its heat-meter part, taken
 * from the input before the circulation (energy.ts).
 */
export function summerSpace(flats: readonly SplitFlat[]): Space {
  const working = flats.map(workingOf);
  // Each its own array: the minimum rule changes its pools in place.
  const zero = () => flats.map(() => 0);
  return {
    common: zero(),
    commonRest: zero(),
    noDevice: zero(),
    heatMeter: flats.map((f, i) => (working[i] === 'energy' ? f.kwh! : 0)),
    base: zero(),
    consumption: zero(),
    averagePerM2: 0,
    working,
  };
}

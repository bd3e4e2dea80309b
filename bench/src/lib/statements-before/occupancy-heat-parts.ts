// Frozen copy of server/src/services/statements/occupancy-heat-parts.ts at commit 56f68cb (before issue 44), for bench:statements only.
import type { StatementHeatParts } from '@rodmenys/contract';

/*
 * A flat's heat parts by its building's method split among its occupants of the month
 * (docs/heat-method.md, "Occupants"): the area and norm parts (base, common, no device,
 * circulation) by days; the consumption parts by units — the consumption part and the assigned
 * heat by the allocators' units, the heat meter's part by its kWh, the hot-water heat by the
 * hot-water m³. A key that is missing or adds up to 0 falls back to days. Each part is split in
 * thousandths so the occupants' parts add up to the flat's exactly; space heating and the total
 * are the sums of the occupant's own parts.
 */

/** What an occupant's days weigh in each key; a key of null (missing) falls back to days. */
export interface OccupantKeys {
  days: number;
  /** The heating devices' units on their days (allocator units, or a heat meter's kWh). */
  heating: number | null;
  /** The hot-water meters' m³ on their days. */
  hotWater: number | null;
}

const SPACE = ['Consumption', 'Base', 'Common', 'NoDevice', 'HeatMeter', 'Assigned'] as const;
type Part = (typeof SPACE)[number] | 'HotWater' | 'Circulation';
const KEY_OF: Record<Part, 'days' | 'heating' | 'hotWater'> = {
  Consumption: 'heating',
  Assigned: 'heating',
  HeatMeter: 'heating',
  Base: 'days',
  Common: 'days',
  NoDevice: 'days',
  Circulation: 'days',
  HotWater: 'hotWater',
};

/**
 * Splits thousandths `total` in proportion to `weights` by the largest remainder (ties to the
 * earlier occupant), so the shares add up to it exactly.
 */
export function largestRemainder(total: number, weights: readonly number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (sum <= 0) return weights.map((_, i) => (i === weights.length - 1 ? total : 0));
  const exact = weights.map((w) => (total * w) / sum);
  const out = exact.map(Math.floor);
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((e, i) => ({ i, r: e - Math.floor(e) })).sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of order) {
    if (left <= 0) break;
    out[i]! += 1;
    left -= 1;
  }
  return out;
}

/** The weights of a key, days where it is missing for someone or adds up to 0. */
function weightsOf(keys: readonly OccupantKeys[], key: 'days' | 'heating' | 'hotWater'): number[] {
  if (key === 'days') return keys.map((k) => k.days);
  const ws = keys.map((k) => k[key]);
  if (ws.some((w) => w === null || w < 0) || ws.reduce<number>((a, w) => a + (w ?? 0), 0) <= 0)
    return keys.map((k) => k.days);
  return ws as number[];
}

/** The flat's parts `flat` split among the occupants whose keys are `keys` (in their order). */
export function splitHeatParts(flat: StatementHeatParts, keys: readonly OccupantKeys[]): StatementHeatParts[] {
  const parts = (Object.keys(KEY_OF) as Part[]).map((part) => ({
    part,
    shares: largestRemainder(Math.round(flat[part] * 1000), weightsOf(keys, KEY_OF[part])),
  }));
  return keys.map((_, i) => {
    const th = (part: Part) => parts.find((p) => p.part === part)!.shares[i]!;
    const space = SPACE.reduce((a, p) => a + th(p), 0);
    const total = space + th('HotWater') + th('Circulation');
    return {
      Consumption: th('Consumption') / 1000,
      Base: th('Base') / 1000,
      Common: th('Common') / 1000,
      NoDevice: th('NoDevice') / 1000,
      HeatMeter: th('HeatMeter') / 1000,
      Assigned: th('Assigned') / 1000,
      Space: space / 1000,
      HotWater: th('HotWater') / 1000,
      Circulation: th('Circulation') / 1000,
      Total: total / 1000,
    };
  });
}

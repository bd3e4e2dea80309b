import { shareByQrad } from '../kwh-share.js';
import { BUILDING_PARTS, type BuildingPart, type FlatParts, type PartAmounts } from './types.js';

/*
 * The last step of the split (docs/heat-method.md): the seven building parts rounded to the
 * thousandth so that they add up to the input, then each part among the flats by the largest
 * remainder (ties by flat order), so that the flats' parts add up to the building's.
 */

/** `total` kWh in thousandths among `weights` by the largest remainder; equally when the weights add to 0. */
function thousandths(totalKwh: number, weights: readonly number[]): number[] {
  const w = weights.map((x) => Math.max(0, x));
  const shares =
    shareByQrad(totalKwh, w) ??
    shareByQrad(
      totalKwh,
      w.map(() => 1),
    ) ??
    w.map(() => 0);
  return shares.map((s) => Math.round(s * 1000));
}

/** The exact amounts per part and flat, and the assigned heat with the part it is booked in. */
export interface ExactParts {
  flats: Record<BuildingPart, number[]>;
  assigned: number[];
  assignedIn: 'consumption' | 'common';
}

/** The rounded building parts and flats' parts; they add up to `inputKwh` rounded to the thousandth. */
export function roundParts(inputKwh: number, ids: readonly number[], exact: ExactParts) {
  const sums = BUILDING_PARTS.map((p) => exact.flats[p].reduce((a, x) => a + x, 0));
  const building = thousandths(inputKwh, sums);
  const perPart = new Map<BuildingPart, number[]>(
    BUILDING_PARTS.map((p, k) => [p, thousandths(building[k]! / 1000, exact.flats[p])]),
  );
  const flats: FlatParts[] = ids.map((id, i) => {
    const of = (p: BuildingPart) => perPart.get(p)![i]!;
    const assigned = Math.min(Math.round(exact.assigned[i]! * 1000), of(exact.assignedIn));
    const t: Record<BuildingPart, number> = Object.fromEntries(BUILDING_PARTS.map((p) => [p, of(p)])) as PartAmounts;
    t[exact.assignedIn] -= assigned;
    const space = t.common + t.noDevice + t.heatMeter + t.base + t.consumption + assigned;
    const k = (x: number) => x / 1000;
    return {
      id,
      hotWater: k(t.hotWater),
      circulation: k(t.circulation),
      common: k(t.common),
      noDevice: k(t.noDevice),
      heatMeter: k(t.heatMeter),
      base: k(t.base),
      consumption: k(t.consumption),
      assigned: k(assigned),
      space: k(space),
      total: k(space + t.hotWater + t.circulation),
    };
  });
  const parts = Object.fromEntries(BUILDING_PARTS.map((p, k) => [p, building[k]! / 1000])) as PartAmounts;
  return { inputKwh: building.reduce((a, x) => a + x, 0) / 1000, parts, flats };
}

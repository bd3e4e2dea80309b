// Frozen copy of server/src/services/statements/averages.ts at commit 56f68cb (before issue 44), for bench:statements only.
import { STATEMENT_KINDS, type StatementKind, type StatementUnit } from '@rodmenys/contract';
import { type FigureContext, flatCell, round3 } from './cells.js';
import type { BuildingFlat } from './selection.js';

/** A building's average of a kind in M: per flat with a value, and per m² over flats with an area. */
export interface BuildingAverage {
  perFlat: number | null;
  perM2: number | null;
}

/** The key of a building's kind and unit in the map buildingAverages returns. */
export const averageKey = (building: number, kind: StatementKind, unit: StatementUnit) => `${building}|${kind}|${unit}`;

interface Sums {
  n: number;
  sum: number;
  areaSum: number;
  areaValue: number;
}

/** Building averages in M per kind and unit (flats of one kind may have different units). */
export function buildingAverages(
  ctx: FigureContext,
  buildings: ReadonlyMap<number, readonly BuildingFlat[]>,
): Map<string, BuildingAverage> {
  const out = new Map<string, BuildingAverage>();
  for (const [building, members] of buildings)
    for (const kind of STATEMENT_KINDS)
      for (const [unit, s] of sumsByUnit(ctx, members, kind)) out.set(averageKey(building, kind, unit), averageOf(s));
  return out;
}

function sumsByUnit(ctx: FigureContext, members: readonly BuildingFlat[], kind: StatementKind) {
  const byUnit = new Map<StatementUnit, Sums>();
  for (const f of members) {
    const { cell, unit } = flatCell(ctx, f, kind, ctx.month);
    if (cell?.value == null) continue;
    const s = byUnit.get(unit) ?? { n: 0, sum: 0, areaSum: 0, areaValue: 0 };
    s.n++;
    s.sum += cell.value;
    if (f.area_m2) {
      s.areaSum += f.area_m2;
      s.areaValue += cell.value;
    }
    byUnit.set(unit, s);
  }
  return byUnit;
}

const averageOf = (s: Sums): BuildingAverage => ({
  perFlat: round3(s.sum / s.n),
  perM2: s.areaSum > 0 ? Math.round((s.areaValue / s.areaSum) * 10000) / 10000 : null,
});

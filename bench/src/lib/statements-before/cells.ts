// Frozen copy of server/src/services/statements/cells.ts at commit 56f68cb (before issue 44), for bench:statements only.
import type { MonthEndSource, StatementFigure, StatementKind, StatementUnit } from '@rodmenys/contract';
import { type BuildingKwh, type HeatingProc, kwhKey } from './kwh.js';
import type { LateDeclarations } from './late-declarations.js';
import type { OverdueDevices } from './overdue.js';
import type { Part, Parts } from './parts.js';
import type { BuildingFlat } from './selection.js';

/*
 * A flat's cell: one kind in one month, in the kind's unit (docs/statements.md): m³ for water,
 * kWh for a flat's own heat meter or its share of the building's, else Qrad.
 */

/** What the figures of a month's statements are computed from. */
export interface FigureContext {
  /** The statement's month M. */
  month: string;
  /** M − 12 … M. */
  months: string[];
  parts: Parts;
  heating: ReadonlyMap<number, HeatingProc>;
  kwh: ReadonlyMap<string, BuildingKwh>;
  /** The devices past their due date in M (docs/device-lifetime.md). */
  overdue: OverdueDevices;
  /** The late declarations carried into M (docs/declared-readings.md). */
  late: LateDeclarations;
}

export interface Cell {
  value: number | null;
  partial: boolean;
  incomplete: boolean;
  sources: MonthEndSource[];
}

export const round3 = (x: number) => Math.round(x * 1000) / 1000;

/** A part's cell, with its own value or another one of it (its Qrad). */
export const cellOf = (part: Part | undefined, value: number | null = part?.value ?? null): Cell => ({
  value: value === null ? null : round3(value),
  partial: !!part && part.partial,
  incomplete: !!part && part.value === null,
  sources: part ? part.sources : [],
});

/** A cell as the contract's figure (no cell: no value). */
export const figureOf = (c: Cell | undefined): StatementFigure => ({
  Value: c?.value ?? null,
  Partial: c?.partial ?? false,
  Incomplete: c?.incomplete ?? false,
  Sources: c?.sources ?? [],
});

/** A building's allocators are in kWh when it has a building heat meter in M (the statement's month). */
const kwhUnit = (ctx: FigureContext, building: number) =>
  ctx.kwh.get(kwhKey(building, ctx.month))?.method !== 'noBuildingMeter';

/** A flat's cell of one kind and month, in the kind's unit. */
export function flatCell(
  ctx: FigureContext,
  f: BuildingFlat,
  kind: StatementKind,
  m: string,
): { cell: Cell | undefined; unit: StatementUnit } {
  if (kind !== 'heating') {
    const p = ctx.parts.get(f.flat_id, kind, 'volume', m);
    return { cell: p && cellOf(p), unit: 'm3' };
  }
  if (ctx.heating.get(f.flat_id) === 'energy') {
    const p = ctx.parts.get(f.flat_id, 'heating', 'energy', m);
    const k = ctx.kwh.get(kwhKey(f.building_id, m));
    // By the building's heat method: the flat's space heating (its meter and its common part; by area
    // when its meter is not in service in `m`), or nothing.
    if (k?.balance) return { cell: methodCell(k, f, p), unit: 'kWh' };
    return { cell: p && cellOf(p), unit: 'kWh' };
  }
  return allocatorCell(ctx, f, m);
}

/** A heat-meter flat's cell in a month split by the building's method (docs/heat-method.md). */
function methodCell(k: BuildingKwh, f: BuildingFlat, p: Part | undefined): Cell {
  const share = k.share.get(f.flat_id);
  return {
    value: share ?? null,
    partial: k.partial,
    incomplete: share === undefined,
    sources: k.sources.length || !p ? k.sources : p.sources,
  };
}

/** An allocator flat's heating: its kWh share, or its Qrad in a building without a heat meter. */
function allocatorCell(
  ctx: FigureContext,
  f: BuildingFlat,
  m: string,
): { cell: Cell | undefined; unit: StatementUnit } {
  const p = ctx.parts.get(f.flat_id, 'heating', 'allocator', m);
  if (!kwhUnit(ctx, f.building_id))
    return { cell: p ? { ...cellOf(p, p.qrad), incomplete: p.qrad === null } : undefined, unit: 'Qrad' };
  const k = ctx.kwh.get(kwhKey(f.building_id, m));
  // No allocators in service in `m` (a flat with allocators in M − 12 … M): by the building's heat method
  // the flat is valued by area at the building's average (docs/heat-method.md, step 3); by the plain
  // rule it has no figure. A flat with no heating device at all has none either.
  if (!p) {
    const byArea = k?.balance && ctx.heating.get(f.flat_id) === 'allocator';
    return { cell: byArea ? methodCell(k, f, undefined) : undefined, unit: 'kWh' };
  }
  const share = k?.share.get(f.flat_id);
  return {
    cell: {
      value: share ?? null,
      partial: !!k?.partial,
      incomplete: share === undefined,
      sources: k?.sources ?? p.sources,
    },
    unit: 'kWh',
  };
}

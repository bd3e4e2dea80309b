import {
  DEVICE_TYPE,
  type FlatStatement,
  STATEMENT_HIGH_FACTOR,
  STATEMENT_KINDS,
  STATEMENT_LOW_FACTOR,
  type StatementHeatBalance,
  type StatementKind,
  type StatementKindFigures,
  type StatementMarker,
  type StatementOverdueDevice,
  type StatementRow,
} from '@rodmenys/contract';
import { averageKey, type BuildingAverage } from './averages.js';
import { type Cell, type FigureContext, figureOf, flatCell, round3 } from './cells.js';
import { parametersOf } from './heat-split/from-parts.js';
import { type BuildingKwh, kwhKey } from './kwh.js';
import type { BuildingFlat } from './selection.js';

/* One flat's statement from the figure context: per kind its figures, markers and history. */

/** What a flat's statement needs besides the context: averages and its city's degree-days. */
export interface FlatInputs {
  averages: ReadonlyMap<string, BuildingAverage>;
  /** Degree-days of M and of M − 12 in the flat's city, if known. */
  degreeDays: (city: number | null) => { current: number | undefined; lastYear: number | undefined };
}

/** Whether the flat has a device of the kind in service in some month of M − 12 … M. */
const hasKind = (ctx: FigureContext, f: BuildingFlat, kind: StatementKind) =>
  kind === 'heating' ? ctx.heating.get(f.flat_id) !== null : ctx.parts.has(f.flat_id, kind, 'volume');

/** The flat's devices of the kind in service in M. */
function devicesInM(ctx: FigureContext, f: BuildingFlat, kind: StatementKind): number {
  if (kind !== 'heating') return ctx.parts.get(f.flat_id, kind, 'volume', ctx.month)?.devices ?? 0;
  const proc = ctx.heating.get(f.flat_id);
  return proc ? (ctx.parts.get(f.flat_id, 'heating', proc, ctx.month)?.devices ?? 0) : 0;
}

/** Last year's heating recomputed by the degree-days of M against M − 12. */
function corrected(kind: StatementKind, last: Cell | undefined, dd: ReturnType<FlatInputs['degreeDays']>) {
  return kind === 'heating' && last?.value != null && dd.current !== undefined && dd.lastYear
    ? round3((last.value * dd.current) / dd.lastYear)
    : null;
}

/** The markers of this month's cell against last year's (corrected when known). */
function markersOf(cur: Cell | undefined, reference: number | null): StatementMarker[] {
  const markers: StatementMarker[] = [];
  if (cur?.partial) markers.push('estimated');
  if (cur?.incomplete) markers.push('incomplete');
  if (cur?.value != null && reference !== null && reference > 0) {
    if (cur.value > STATEMENT_HIGH_FACTOR * reference) markers.push('high');
    else if (cur.value < STATEMENT_LOW_FACTOR * reference) markers.push('low');
  }
  return markers;
}

/** The flat's device types behind each kind's figure. */
const FLAT_TYPES: Record<StatementKind, number[]> = {
  heating: [DEVICE_TYPE.allocator, DEVICE_TYPE.heatMeter],
  hotWater: [DEVICE_TYPE.hotWaterMeter],
  coldWater: [DEVICE_TYPE.coldWaterMeter],
};

/**
 * The devices past their due date in M behind a figure (docs/device-lifetime.md): the flat's of
 * the kind; for heating kWh from the building's input, its heat meter too (and, by a heat method,
 * its hot-water meter).
 */
function overdueOf(
  ctx: FigureContext,
  f: BuildingFlat,
  kind: StatementKind,
  facts: { KwhMethod: string | null; HeatBalance: unknown },
): StatementOverdueDevice[] {
  const own = ctx.overdue.of(f.flat_id, FLAT_TYPES[kind]);
  if (kind !== 'heating') return own;
  if (facts.HeatBalance)
    return [...own, ...ctx.overdue.of(f.building_id, [DEVICE_TYPE.buildingHeatMeter, DEVICE_TYPE.hotWaterMeter])];
  if (facts.KwhMethod && facts.KwhMethod !== 'noBuildingMeter')
    return [...own, ...ctx.overdue.of(f.building_id, [DEVICE_TYPE.buildingHeatMeter])];
  return own;
}

/**
 * Per building month, its balance with the parameters behind a flat: one object for the flats without
 * parameters of their own (the same for each of them), one per flat with its own; built once per building,
 * not per flat (docs/statements.md, "Figures of many flats").
 */
const balances = new WeakMap<BuildingKwh, Map<number | null, StatementHeatBalance>>();

function heatBalanceOf(k: BuildingKwh, flatId: number): StatementHeatBalance | null {
  if (!k.balance || !k.version) return null;
  const byFlat = balances.get(k) ?? new Map<number | null, StatementHeatBalance>();
  balances.set(k, byFlat);
  const key = k.version.Flats.some((x) => x.FlatId === flatId) ? flatId : null;
  const b = byFlat.get(key) ?? { ...k.balance, Parameters: parametersOf(k.version, flatId) };
  byFlat.set(key, b);
  return b;
}

/** Heating by the building's heat method in M (`k`: its sharing in M): its balance and the flat's parts (docs/heat-method.md). */
function methodFacts(k: BuildingKwh | undefined, f: BuildingFlat) {
  const p = k?.flats?.get(f.flat_id);
  return {
    HeatBalance: k ? heatBalanceOf(k, f.flat_id) : null,
    HeatParts: p
      ? {
          Consumption: p.consumption,
          Base: p.base,
          Common: p.common,
          NoDevice: p.noDevice,
          HeatMeter: p.heatMeter,
          Assigned: p.assigned,
          Space: p.space,
          HotWater: p.hotWater,
          Circulation: p.circulation,
          Total: p.total,
        }
      : null,
  };
}

/** The allocator facts of a flat heated by allocators: units, Qrad and the building's kWh sharing (`kwh`: in M). */
function allocatorFacts(ctx: FigureContext, f: BuildingFlat, kind: StatementKind, kwh: BuildingKwh | undefined) {
  const alloc = kind === 'heating' && ctx.heating.get(f.flat_id) === 'allocator';
  const part = alloc ? ctx.parts.get(f.flat_id, 'heating', 'allocator', ctx.month) : undefined;
  const k = alloc ? kwh : undefined;
  return {
    Units: part?.value == null ? null : round3(part.value),
    Qrad: part?.qrad == null ? null : round3(part.qrad),
    KwhMethod: k ? k.method : null,
    BuildingKwh: k?.energy == null ? null : round3(k.energy),
    BuildingLine: k?.line ?? null,
  };
}

/** A flat's figures of one kind. */
function kindFigures(
  ctx: FigureContext,
  inputs: FlatInputs,
  f: BuildingFlat,
  kind: StatementKind,
): StatementKindFigures {
  const cur = flatCell(ctx, f, kind, ctx.month);
  const prev = flatCell(ctx, f, kind, ctx.months[11]!);
  const last = flatCell(ctx, f, kind, ctx.months[0]!);
  const lastCorrected = corrected(kind, last.cell, inputs.degreeDays(f.city_id));
  const avg = inputs.averages.get(averageKey(f.building_id, kind, cur.unit));
  // The building's sharing in M, looked up once for the kind (its key is a string built per lookup).
  const kwh = kind === 'heating' ? ctx.kwh.get(kwhKey(f.building_id, ctx.month)) : undefined;
  const allocator = allocatorFacts(ctx, f, kind, kwh);
  const method = methodFacts(kwh, f);
  const overdue = overdueOf(ctx, f, kind, { KwhMethod: allocator.KwhMethod, HeatBalance: method.HeatBalance });
  const markers = markersOf(cur.cell, lastCorrected ?? last.cell?.value ?? null);
  const late = ctx.late.of(f.flat_id, FLAT_TYPES[kind]);
  if (overdue.length) markers.push('overdue');
  if (late.length) markers.push('lateDeclaration');
  return {
    Kind: kind,
    Unit: cur.unit,
    Devices: devicesInM(ctx, f, kind),
    Current: figureOf(cur.cell),
    Previous: figureOf(prev.cell),
    LastYear: figureOf(last.cell),
    LastYearCorrected: lastCorrected,
    BuildingAverage: avg?.perFlat ?? null,
    BuildingAveragePerM2: avg?.perM2 ?? null,
    ...allocator,
    ...method,
    Markers: markers,
    Overdue: overdue,
    LateDeclarations: late,
  };
}

/** A kind's 13 months. */
function historyOf(ctx: FigureContext, f: BuildingFlat, kind: StatementKind): FlatStatement['History'][number] {
  return {
    Kind: kind,
    Unit: flatCell(ctx, f, kind, ctx.month).unit,
    Months: ctx.months.map((m) => {
      const c = flatCell(ctx, f, kind, m).cell;
      return { Month: m, Value: c?.value ?? null, Partial: c?.partial ?? false };
    }),
  };
}

const rowOf = (f: BuildingFlat, kinds: StatementKindFigures[]): StatementRow => ({
  FlatId: f.flat_id,
  BuildingId: f.building_id,
  City: f.city,
  Street: f.street,
  Building: f.building,
  Flat: f.flat,
  FlatOrder: f.flat_order,
  AreaM2: f.area_m2,
  ClientCode: f.client_code,
  Kinds: kinds,
  Published: null,
});

/** One flat's statement (its History only `withHistory`). */
export function flatStatementOf(
  ctx: FigureContext,
  inputs: FlatInputs,
  f: BuildingFlat,
  withHistory: boolean,
): FlatStatement {
  const kinds = STATEMENT_KINDS.filter((kind) => hasKind(ctx, f, kind));
  const dd = inputs.degreeDays(f.city_id);
  return {
    Month: ctx.month,
    Row: rowOf(
      f,
      kinds.map((kind) => kindFigures(ctx, inputs, f, kind)),
    ),
    History: withHistory ? kinds.map((kind) => historyOf(ctx, f, kind)) : [],
    DegreeDays:
      dd.current !== undefined && dd.lastYear !== undefined ? { Current: dd.current, LastYear: dd.lastYear } : null,
  };
}

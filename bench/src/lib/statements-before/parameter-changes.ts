// Frozen copy of server/src/services/statements/parameter-changes.ts at commit 56f68cb (before issue 44), for bench:statements only.
import type {
  HeatParameterChange,
  HeatParameterName,
  HeatParameterValue,
  StatementHeatBalance,
  StatementRow,
} from '@rodmenys/contract';
import { HEAT_BUILDING_PARAMETERS, HEAT_FLAT_PARAMETERS } from '@rodmenys/contract';

/*
 * What a republish would change in the heat method behind a building's month (docs/heat-method.md,
 * "Publication"): the parameters frozen with the published figures against those of the version that
 * splits the month now. A publication made before the parameters were frozen with it names none.
 */

const BUILDING = HEAT_BUILDING_PARAMETERS;
const FLAT = HEAT_FLAT_PARAMETERS;

const balanceOf = (r: StatementRow): StatementHeatBalance | null =>
  r.Kinds.find((k) => k.Kind === 'heating')?.HeatBalance ?? null;
const hasHeating = (r: StatementRow) => r.Kinds.some((k) => k.Kind === 'heating');
/** Equal values; season periods by their days (a snapshot's jsonb keeps its keys in its own order). */
const same = (a: HeatParameterValue, b: HeatParameterValue) =>
  Array.isArray(a) && Array.isArray(b)
    ? a.length === b.length && a.every((x, i) => x.From === b[i]!.From && x.To === b[i]!.To)
    : a === b;
const buildingAddress = (r: StatementRow) =>
  [r.City, [r.Street, r.Building].filter(Boolean).join(' ')].filter(Boolean).join(', ');
const flatAddress = (r: StatementRow) => [buildingAddress(r), r.Flat].filter(Boolean).join(', ');

/** One building's changed parameters between a flat's published row `a` and its live row `b`. */
function buildingChanges(a: StatementRow, b: StatementRow): HeatParameterChange[] {
  const pa = balanceOf(a);
  const pb = balanceOf(b);
  const out: HeatParameterChange[] = [];
  const push = (Parameter: HeatParameterName, Published: HeatParameterValue, Live: HeatParameterValue) => {
    if (!same(Published, Live))
      out.push({ BuildingId: b.BuildingId, FlatId: null, Address: buildingAddress(b), Parameter, Published, Live });
  };
  push('Method', pa?.Method ?? null, pb?.Method ?? null);
  if (!pa || !pb) return out;
  push('ValidFrom', pa.ValidFrom, pb.ValidFrom);
  if (!pa.Parameters || !pb.Parameters) return out;
  for (const name of BUILDING) push(name, pa.Parameters[name], pb.Parameters[name]);
  return out;
}

/** A flat's own changed parameters. */
function flatChanges(a: StatementRow, b: StatementRow): HeatParameterChange[] {
  const pa = balanceOf(a)?.Parameters;
  const pb = balanceOf(b)?.Parameters;
  if (!pa || !pb) return [];
  return FLAT.filter((name) => !same(pa[name], pb[name])).map((name) => ({
    BuildingId: b.BuildingId,
    FlatId: b.FlatId,
    Address: flatAddress(b),
    Parameter: name,
    Published: pa[name],
    Live: pb[name],
  }));
}

/**
 * The heat method's parameters that differ between the published rows `before` and the live rows
 * `after` of the same flats: the building's once per building (from its first flat heated on both
 * sides), each flat's own per flat.
 */
export function parameterChanges(
  before: readonly StatementRow[],
  after: readonly StatementRow[],
): HeatParameterChange[] {
  const old = new Map(before.map((r) => [r.FlatId, r]));
  const seen = new Set<number>();
  const out: HeatParameterChange[] = [];
  for (const b of after) {
    const a = old.get(b.FlatId);
    if (!a || !hasHeating(a) || !hasHeating(b)) continue;
    if (!seen.has(b.BuildingId)) {
      seen.add(b.BuildingId);
      out.push(...buildingChanges(a, b));
    }
    out.push(...flatChanges(a, b));
  }
  return out;
}

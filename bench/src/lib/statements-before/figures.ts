// Frozen copy of server/src/services/statements/figures.ts at commit 56f68cb, for bench:statements only.
import type { FlatStatement, StatementRow } from '@rodmenys/contract';
import type { Queryable } from '@rodmenys/server/db/db.js';
import { heatMethodsOf } from '@rodmenys/server/services/heat-methods/heat-methods.js';
import { buildingAverages } from '@rodmenys/server/services/statements/averages.js';
import type { FigureContext } from '@rodmenys/server/services/statements/cells.js';
import { seasonDayEnergy } from '@rodmenys/server/services/statements/heat-split/season-values.js';
import { heatingProcOf, kwhByBuilding } from '@rodmenys/server/services/statements/kwh.js';
import { loadLateDeclarations } from '@rodmenys/server/services/statements/late-declarations.js';
import { statementMonths } from '@rodmenys/server/services/statements/months.js';
import {
  type BuildingFlat,
  type FlatSelection,
  loadBuildingFlats,
} from '@rodmenys/server/services/statements/selection.js';
import { flatStatementOf } from './flat-figures.js';
import { loadOverdue } from './overdue.js';
import { loadParts } from './parts.js';

/*
 * The figures of a month's statements, computed now from the month-end values (docs/statements.md):
 * the selection's buildings (selection.ts), their parts (parts.ts), the kWh sharing (kwh.ts), the
 * flats' cells (cells.ts), the building averages (averages.ts) and each flat's statement
 * (flat-figures.ts).
 */

export { statementMonths } from '@rodmenys/server/services/statements/months.js';
export type { FlatSelection } from '@rodmenys/server/services/statements/selection.js';

/**
 * The statements of the selected flats for month M, computed now from the month-end values
 * (docs/statements.md). Flats in address order. Published snapshots are not looked at here.
 */
export function computeStatements(db: Queryable, month: string, selection: FlatSelection): Promise<FlatStatement[]> {
  return compute(db, month, selection, true);
}

/**
 * The figures of the selected flats for month M (the statements without their history): only
 * M − 12, M − 1 and M are computed, a quarter of a statement's 13 months.
 */
export async function computeRows(db: Queryable, month: string, selection: FlatSelection): Promise<StatementRow[]> {
  return (await compute(db, month, selection, false)).map((s) => s.Row);
}

/** The flats grouped by building, in their order. */
function byBuilding(flats: readonly BuildingFlat[]): Map<number, BuildingFlat[]> {
  const out = new Map<number, BuildingFlat[]>();
  for (const f of flats) {
    const list = out.get(f.building_id);
    if (list) list.push(f);
    else out.set(f.building_id, [f]);
  }
  return out;
}

/** The degree-days of M and M − 12 of the flats' cities, as a lookup per city. */
async function loadDegreeDays(db: Queryable, flats: readonly BuildingFlat[], month: string, lastYear: string) {
  const cityIds = [...new Set(flats.map((f) => f.city_id).filter((c): c is number => c !== null))];
  const { rows } = await db.query<{ city_id: number; month: string; value: number }>(
    `SELECT city_id, to_char(month, 'YYYY-MM') AS month, value::float8 AS value FROM degree_days
      WHERE city_id = ANY ($1::int[]) AND month IN ($2::date, $3::date)`,
    [cityIds, `${month}-01`, `${lastYear}-01`],
  );
  const of = (city: number | null, m: string) => rows.find((d) => d.city_id === city && d.month === m)?.value;
  return (city: number | null) => ({ current: of(city, month), lastYear: of(city, lastYear) });
}

async function compute(
  db: Queryable,
  month: string,
  selection: FlatSelection,
  withHistory: boolean,
): Promise<FlatStatement[]> {
  const flats = await loadBuildingFlats(db, selection, month);
  if (!flats.some((f) => f.selected)) return [];
  const months = statementMonths(month);
  const computed = withHistory ? months : [months[0]!, months[11]!, month];
  const parts = await loadParts(
    db,
    flats.map((f) => f.flat_id),
    computed,
    months[0]!,
    month,
  );
  const degreeDays = await loadDegreeDays(db, flats, month, months[0]!);
  const buildings = byBuilding(flats);
  const heating = new Map(flats.map((f) => [f.flat_id, heatingProcOf(parts, f.flat_id)]));
  // The buildings' heat methods (docs/heat-method.md), each month by its own version.
  const versions = await heatMethodsOf(db, [...buildings.keys()]);
  const upTo = await seasonDayEnergy(db, versions, computed);
  const kwh = kwhByBuilding(parts, buildings, heating, computed, { versions, upTo });
  const overdue = await loadOverdue(
    db,
    flats.map((f) => f.flat_id),
    month,
  );
  const late = await loadLateDeclarations(
    db,
    flats.map((f) => f.flat_id),
    month,
  );
  // The frozen overdue.ts's class: the same members as the live one's, which FigureContext names.
  const ctx: FigureContext = {
    month,
    months,
    parts,
    heating,
    kwh,
    overdue: overdue as unknown as FigureContext['overdue'],
    late,
  };
  const inputs = { averages: buildingAverages(ctx, buildings), degreeDays };
  return flats.filter((f) => f.selected).map((f) => flatStatementOf(ctx, inputs, f, withHistory));
}

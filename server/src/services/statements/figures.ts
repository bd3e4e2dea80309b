import type { FlatStatement, StatementRow } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { heatMethodsOf } from '../heat-methods/heat-methods.js';
import { loadSettings } from '../settings.js';
import { buildingAverages } from './averages.js';
import type { FigureContext } from './cells.js';
import { flatStatementOf } from './flat-figures.js';
import { seasonDayEnergy } from './heat-split/season-values.js';
import { heatingProcOf, kwhByBuilding } from './kwh.js';
import { loadLateDeclarations } from './late-declarations.js';
import { statementMonths } from './months.js';
import { loadOverdue } from './overdue.js';
import { loadParts } from './parts.js';
import { type BuildingFlat, type FlatSelection, loadBuildingFlats } from './selection.js';

/*
 * The figures of a month's statements, computed now from the month-end values (docs/statements.md):
 * the selection's buildings (selection.ts), their parts (parts.ts), the kWh sharing (kwh.ts), the
 * flats' cells (cells.ts), the building averages (averages.ts) and each flat's statement
 * (flat-figures.ts).
 */

export { statementMonths } from './months.js';
export type { FlatSelection } from './selection.js';

/**
 * The statements of the selected flats for month M, computed now from the month-end values
 * (docs/statements.md). Flats in address order. Published snapshots are not looked at here. `flats`, when
 * given: the selection's buildings' flats (loadBuildingFlats of the same selection) already being read,
 * side by side with what the caller read first (snapshots.ts).
 */
export function computeStatements(
  db: Queryable,
  month: string,
  selection: FlatSelection,
  flats?: Promise<BuildingFlat[]>,
): Promise<FlatStatement[]> {
  return compute(db, month, selection, true, flats);
}

/**
 * The figures of the selected flats for month M (the statements without their history): only
 * M − 12, M − 1 and M are computed, a quarter of a statement's 13 months.
 */
export async function computeRows(
  db: Queryable,
  month: string,
  selection: FlatSelection,
  flats?: Promise<BuildingFlat[]>,
): Promise<StatementRow[]> {
  return (await compute(db, month, selection, false, flats)).map((s) => s.Row);
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

/**
 * Independent reads: on the database's pool side by side, each on a connection of its own (docs/statements.md,
 * "Figures of many flats"); in a transaction one after the other on its one connection.
 */
async function readAll<T extends readonly (() => Promise<unknown>)[]>(
  db: Queryable,
  reads: T,
): Promise<{ -readonly [K in keyof T]: Awaited<ReturnType<T[K]>> }> {
  if ('transaction' in db) return Promise.all(reads.map((r) => r())) as never;
  const out: unknown[] = [];
  for (const r of reads) out.push(await r());
  return out as never;
}

async function compute(
  db: Queryable,
  month: string,
  selection: FlatSelection,
  withHistory: boolean,
  preloaded: Promise<BuildingFlat[]> | undefined,
): Promise<FlatStatement[]> {
  const flats = await (preloaded ?? loadBuildingFlats(db, selection, month));
  if (!flats.some((f) => f.selected)) return [];
  const months = statementMonths(month);
  const computed = withHistory ? months : [months[0]!, months[11]!, month];
  const flatIds = flats.map((f) => f.flat_id);
  const buildings = byBuilding(flats);
  const [parts, degreeDays, methods, overdue, late] = await readAll(db, [
    () => loadParts(db, flatIds, computed, months[0]!, month),
    () => loadDegreeDays(db, flats, month, months[0]!),
    // The buildings' heat methods (docs/heat-method.md), each month by its own version.
    // On the pool the settings (the month ends' tolerance) are read side by side with the versions.
    async () => {
      const settings = 'transaction' in db ? loadSettings(db) : undefined;
      settings?.catch(() => undefined);
      const versions = await heatMethodsOf(db, [...buildings.keys()]);
      return { versions, upTo: await seasonDayEnergy(db, versions, computed, settings) };
    },
    () => loadOverdue(db, flatIds, month),
    () => loadLateDeclarations(db, flatIds, month),
  ] as const);
  const heating = new Map(flats.map((f) => [f.flat_id, heatingProcOf(parts, f.flat_id)]));
  const kwh = kwhByBuilding(parts, buildings, heating, computed, methods);
  const ctx: FigureContext = { month, months, parts, heating, kwh, overdue, late };
  const inputs = { averages: buildingAverages(ctx, buildings), degreeDays };
  return flats.filter((f) => f.selected).map((f) => flatStatementOf(ctx, inputs, f, withHistory));
}

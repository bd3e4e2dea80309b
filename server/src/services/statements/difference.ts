import {
  HEAT_CHANGE_PARTS,
  type HeatParameterChange,
  type OccupancyKindFigures,
  type OccupancyStatement,
  type StatementChange,
  type StatementKindFigures,
  type StatementRow,
} from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { computeRows } from './figures.js';
import { splitMoves } from './occupancy-figures.js';
import { parameterChanges } from './parameter-changes.js';
import { selectPublishedFlats } from './selection.js';
import { loadSelection } from './snapshots.js';

/* What publishing again would change: published against live figures (docs/statements.md). */

const FIELDS = ['Current', 'Previous', 'LastYear'] as const;
const address = (r: StatementRow) =>
  [r.City, [r.Street, r.Building].filter(Boolean).join(' '), r.Flat].filter(Boolean).join(', ');

/** The changed figures of one flat between two versions of its row. */
function rowChanges(prev: StatementRow, row: StatementRow): StatementChange[] {
  const out: StatementChange[] = [];
  const kinds = new Set([...prev.Kinds, ...row.Kinds].map((k) => k.Kind));
  for (const kind of kinds) {
    const a: StatementKindFigures | undefined = prev.Kinds.find((k) => k.Kind === kind);
    const b: StatementKindFigures | undefined = row.Kinds.find((k) => k.Kind === kind);
    for (const field of FIELDS) {
      const published = a?.[field].Value ?? null;
      const live = b?.[field].Value ?? null;
      if (published !== live)
        out.push({
          FlatId: row.FlatId,
          BuildingId: row.BuildingId,
          Address: address(row),
          Kind: kind,
          Field: field,
          Published: published,
          Live: live,
        });
    }
    // The month's heat by the building's method, part by part (docs/heat-method.md): a changed parameter
    // moves heat between parts even where the flat's space heating stays the same.
    for (const part of HEAT_CHANGE_PARTS) {
      const published = a?.HeatParts?.[part] ?? null;
      const live = b?.HeatParts?.[part] ?? null;
      if (published !== live)
        out.push({
          FlatId: row.FlatId,
          BuildingId: row.BuildingId,
          Address: address(row),
          Kind: kind,
          Field: 'Current',
          Part: part,
          Published: published,
          Live: live,
        });
    }
  }
  return out;
}

/** The figures that differ between two versions of the same flats' statements. */
export function statementChanges(before: readonly StatementRow[], after: readonly StatementRow[]): StatementChange[] {
  const old = new Map(before.map((r) => [r.FlatId, r]));
  return after.flatMap((row) => {
    const prev = old.get(row.FlatId);
    return prev ? rowChanges(prev, row) : [];
  });
}

const occupancyValue = (k: OccupancyKindFigures | undefined, field: (typeof FIELDS)[number]) =>
  (field === 'Current' ? k?.Current : k?.[field])?.Value ?? null;

/**
 * The changed figures of one flat's occupants between two versions of its split (docs/occupancies.md),
 * matched by occupancy; an occupancy on one side only has null on the other. `row`: the flat's new row.
 */
export function occupancyChanges(
  row: StatementRow,
  before: readonly OccupancyStatement[],
  after: readonly OccupancyStatement[],
): StatementChange[] {
  const out: StatementChange[] = [];
  const old = new Map(before.map((o) => [o.OccupancyId, o]));
  const now = new Map(after.map((o) => [o.OccupancyId, o]));
  for (const id of new Set([...old.keys(), ...now.keys()])) {
    const a = old.get(id);
    const b = now.get(id);
    const o = (b ?? a)!;
    const kinds = new Set([...(a?.Kinds ?? []), ...(b?.Kinds ?? [])].map((k) => k.Kind));
    for (const kind of kinds) {
      const ka = a?.Kinds.find((k) => k.Kind === kind);
      const kb = b?.Kinds.find((k) => k.Kind === kind);
      for (const field of FIELDS) {
        const published = occupancyValue(ka, field);
        const live = occupancyValue(kb, field);
        if (published !== live)
          out.push({
            FlatId: row.FlatId,
            BuildingId: row.BuildingId,
            Address: address(row),
            Kind: kind,
            Field: field,
            Published: published,
            Live: live,
            Occupancy: { OccupancyId: id, ClientCode: o.ClientCode, From: o.From, Till: o.Till },
          });
      }
    }
  }
  return out;
}

/** A stored split (jsonb, parsed or not by the driver); null: none frozen. */
export const storedOccupancies = (v: OccupancyStatement[] | string | null): OccupancyStatement[] | null =>
  typeof v === 'string' ? (JSON.parse(v) as OccupancyStatement[]) : v;

/** The frozen splits of published flats, by flat. */
async function frozenSplits(
  db: Queryable,
  flats: readonly { publication_id: number | null; flat_id: number }[],
): Promise<Map<number, OccupancyStatement[]>> {
  const { rows } = await db.query<{ flat_id: number; occupancies: OccupancyStatement[] | string }>(
    `SELECT s.flat_id, s.occupancies FROM statement_snapshot s
       JOIN unnest($1::int[], $2::int[]) AS w(publication_id, flat_id)
         ON w.publication_id = s.publication_id AND w.flat_id = s.flat_id
      WHERE s.occupancies IS NOT NULL`,
    [flats.map((f) => f.publication_id), flats.map((f) => f.flat_id)],
  );
  return new Map(rows.map((r) => [r.flat_id, storedOccupancies(r.occupancies) ?? []]));
}

/**
 * The per-occupancy changes of flats `rows` (their new rows) against the splits frozen before
 * (`frozen`, by flat); `splits` receives the new splits of the flats with a move in the month.
 */
export async function splitChanges(
  db: Queryable,
  month: string,
  rows: readonly StatementRow[],
  frozen: ReadonlyMap<number, OccupancyStatement[]> | null,
  splits = new Map<number, OccupancyStatement[]>(),
): Promise<StatementChange[]> {
  for (const [id, split] of await splitMoves(db, month, rows)) splits.set(id, split);
  return frozen ? occupantChanges(rows, frozen, splits) : [];
}

/** The per-occupancy changes of flats `rows` between the splits frozen before and the new ones (`splits`). */
export function occupantChanges(
  rows: readonly StatementRow[],
  frozen: ReadonlyMap<number, OccupancyStatement[]>,
  splits: ReadonlyMap<number, OccupancyStatement[]>,
): StatementChange[] {
  return rows.flatMap((row) => {
    const before = frozen.get(row.FlatId) ?? [];
    const after = splits.get(row.FlatId) ?? [];
    return before.length || after.length ? occupancyChanges(row, before, after) : [];
  });
}

/** Published against live figures of the selection's published flats: what publishing again would change. */
export async function statementDifference(
  db: Queryable,
  month: string,
  sel: { scope: number[] | null; parents: number[] | null },
): Promise<{ Published: number; Changes: StatementChange[]; ParameterChanges: HeatParameterChange[] }> {
  const flats = (await selectPublishedFlats(db, month, sel)).filter((f) => f.publication_id !== null);
  if (!flats.length) return { Published: 0, Changes: [], ParameterChanges: [] };
  const published = { scope: sel.scope, flatIds: flats.map((f) => f.flat_id) };
  const frozen = (await loadSelection(db, month, published, false)).filter((s) => s.Row.Published).map((s) => s.Row);
  const live = await computeRows(db, month, published);
  return {
    Published: new Set(flats.map((f) => f.building_id)).size,
    Changes: [
      ...statementChanges(frozen, live),
      ...(await splitChanges(db, month, live, await frozenSplits(db, flats))),
    ],
    ParameterChanges: parameterChanges(frozen, live),
  };
}

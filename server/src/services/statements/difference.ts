import type { StatementChange, StatementKindFigures, StatementRow } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { computeRows } from './figures.js';
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

/** Published against live figures of the selection's published flats: what publishing again would change. */
export async function statementDifference(
  db: Queryable,
  month: string,
  sel: { scope: number[] | null; parents: number[] | null },
): Promise<{ Published: number; Changes: StatementChange[] }> {
  const flats = (await selectPublishedFlats(db, month, sel)).filter((f) => f.publication_id !== null);
  if (!flats.length) return { Published: 0, Changes: [] };
  const published = { scope: sel.scope, flatIds: flats.map((f) => f.flat_id) };
  const frozen = await loadSelection(db, month, published, false);
  const live = await computeRows(db, month, published);
  return {
    Published: new Set(flats.map((f) => f.building_id)).size,
    Changes: statementChanges(
      frozen.filter((s) => s.Row.Published).map((s) => s.Row),
      live,
    ),
  };
}

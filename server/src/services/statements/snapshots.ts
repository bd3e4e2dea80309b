import type { FlatStatement, StatementPublication, StatementRow } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { computeRows, computeStatements } from './figures.js';
import {
  type BuildingFlat,
  type FlatSelection,
  inAddressOrder,
  loadBuildingFlats,
  type PublishedFlat,
  selectPublishedFlats,
} from './selection.js';

/*
 * The statements as shown (docs/statements.md): a flat of a published building as it was
 * published (its latest version's snapshot), every other flat computed now.
 */

const publicationOf = (s: PublishedFlat): StatementPublication | null =>
  s.publication_id === null
    ? null
    : { BuildingId: s.building_id, Version: s.version!, PublishedAt: s.published_at!, PublishedBy: s.published_by };

type Kind = FlatStatement['Row']['Kinds'][number];

/**
 * A snapshot's statement as stored (jsonb, parsed or not by the driver). Snapshots published
 * before the building line, the heat method, its frozen parameters, the overdue devices or the late
 * declarations existed get them as null (none): what was published is shown, nothing added.
 */
export function storedStatement(stored: FlatStatement | string): FlatStatement {
  const s = typeof stored === 'string' ? (JSON.parse(stored) as FlatStatement) : stored;
  const complete = (k: Kind) =>
    k.BuildingLine !== undefined &&
    k.HeatBalance !== undefined &&
    (k.HeatBalance === null || k.HeatBalance.Parameters !== undefined) &&
    k.HeatParts !== undefined &&
    k.Overdue !== undefined &&
    k.LateDeclarations !== undefined;
  if (s.Row.Kinds.every(complete)) return s;
  const kinds = s.Row.Kinds.map((k) => ({
    ...k,
    BuildingLine: k.BuildingLine ?? null,
    HeatBalance: k.HeatBalance ? { ...k.HeatBalance, Parameters: k.HeatBalance.Parameters ?? null } : null,
    HeatParts: k.HeatParts ?? null,
    Overdue: k.Overdue ?? [],
    LateDeclarations: k.LateDeclarations ?? [],
  }));
  return { ...s, Row: { ...s.Row, Kinds: kinds } };
}

/** The published flats' snapshots, each with its publication; without History unless `withHistory`. */
async function readSnapshots(
  db: Queryable,
  published: readonly PublishedFlat[],
  withHistory: boolean,
): Promise<Map<number, FlatStatement>> {
  const frozen = new Map<number, FlatStatement>();
  if (!published.length) return frozen;
  const { rows } = await db.query<{ flat_id: number; statement: FlatStatement | string }>(
    `SELECT s.flat_id, ${withHistory ? 's.statement' : "s.statement - 'History'"} AS statement FROM statement_snapshot s
       JOIN unnest($1::int[], $2::int[]) AS w(publication_id, flat_id)
         ON w.publication_id = s.publication_id AND w.flat_id = s.flat_id`,
    [published.map((f) => f.publication_id), published.map((f) => f.flat_id)],
  );
  const info = new Map(published.map((f) => [f.flat_id, publicationOf(f)]));
  for (const r of rows) {
    const st = storedStatement(r.statement);
    frozen.set(r.flat_id, {
      ...st,
      History: st.History ?? [],
      Row: { ...st.Row, Published: info.get(r.flat_id) ?? null },
    });
  }
  return frozen;
}

/** The flats' statements computed now (the rows only, without History, unless `withHistory`). */
async function computeLive(
  db: Queryable,
  month: string,
  selection: FlatSelection,
  withHistory: boolean,
  flats: Promise<BuildingFlat[]> | undefined,
): Promise<FlatStatement[]> {
  if (withHistory) return computeStatements(db, month, selection, flats);
  return (await computeRows(db, month, selection, flats)).map((Row) => ({
    Month: month,
    Row,
    History: [],
    DegreeDays: null,
  }));
}

/**
 * As loadStatements; the rows only unless `withHistory` (History is then neither computed nor read).
 * `onFlats`: told the selection's flats as soon as they are known (the caller starts its own reads then).
 *
 * On the pool the buildings' flats of the whole selection are read side by side with the publications
 * (one round trip less, docs/statements.md "Figures of many flats"); they are used when no flat is frozen.
 */
export async function loadSelection(
  db: Queryable,
  month: string,
  selection: FlatSelection,
  withHistory: boolean,
  onFlats?: (flatIds: number[]) => void,
): Promise<FlatStatement[]> {
  const early = 'transaction' in db ? loadBuildingFlats(db, selection, month) : undefined;
  // Awaited below when used; left unread when a flat is frozen (then the live flats are read again).
  early?.catch(() => undefined);
  const flats = await selectPublishedFlats(db, month, selection);
  if (!flats.length) return [];
  onFlats?.(flats.map((f) => f.flat_id));
  const frozen = await readSnapshots(
    db,
    flats.filter((f) => f.publication_id !== null),
    withHistory,
  );
  // Flats added to a building after it was published are shown live.
  const live = flats.filter((f) => !frozen.has(f.flat_id)).map((f) => f.flat_id);
  const computed = live.length
    ? await computeLive(
        db,
        month,
        { flatIds: live, scope: selection.scope },
        withHistory,
        frozen.size ? undefined : early,
      )
    : [];
  if (!frozen.size) return computed;
  // One address order for both: the computed order, with the frozen flats placed by a second lookup.
  const byId = new Map<number, FlatStatement>([...frozen, ...computed.map((c) => [c.Row.FlatId, c] as const)]);
  const order = await inAddressOrder(
    db,
    flats.map((f) => f.flat_id),
  );
  return order.map((id) => byId.get(id)).filter((s): s is FlatStatement => !!s);
}

/**
 * The statements of a selection for a month: a flat of a published building as it was published
 * (the latest version), every other flat computed now. In address order.
 */
export function loadStatements(db: Queryable, month: string, selection: FlatSelection): Promise<FlatStatement[]> {
  return loadSelection(db, month, selection, true);
}

/** The figures of a selection (the statements without their history). */
export async function statementRows(
  db: Queryable,
  month: string,
  sel: { scope: number[] | null; parents: number[] | null },
  onFlats?: (flatIds: number[]) => void,
): Promise<StatementRow[]> {
  return (await loadSelection(db, month, sel, false, onFlats)).map((s) => s.Row);
}

/** One flat's statement; 404 when it is not a flat in the caller's scope. */
export async function flatStatement(
  db: Queryable,
  month: string,
  flatId: number,
  scope: number[] | null,
): Promise<FlatStatement> {
  const [statement] = await loadStatements(db, month, { scope, flatIds: [flatId] });
  if (!statement) throw notFound('flatNotFound');
  return statement;
}

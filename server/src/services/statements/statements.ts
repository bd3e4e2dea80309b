import {
  type FlatStatement,
  GROUP,
  LOCATION_LEVEL,
  type StatementChange,
  type StatementKindFigures,
  type StatementPublication,
  type StatementRow,
} from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { queueBillingNotices } from '../billing/receivers.js';
import { freezeBillingExport } from '../billing/snapshot.js';
import { buildingIdOf, inScope } from '../sql.js';
import { computeRows, computeStatements } from './figures.js';

interface Selected {
  flat_id: number;
  building_id: number;
  publication_id: number | null;
  version: number | null;
  published_at: string | null;
  published_by: string | null;
}

/** The flats of a selection with their building's latest publication of the month, if any. */
async function selectFlats(
  db: Queryable,
  month: string,
  sel: { scope: number[] | null; parents: number[] | null } | { scope: number[] | null; flatIds: number[] },
): Promise<Selected[]> {
  const byIds = 'flatIds' in sel;
  const { rows } = await db.query<Selected>(
    `SELECT l.id AS flat_id, ${buildingIdOf('l')} AS building_id, p.id AS publication_id, p.version,
            iso(p.published_at) AS published_at, u.username AS published_by
       FROM location l
       LEFT JOIN LATERAL (
         SELECT * FROM statement_publication sp WHERE sp.month = $3::date AND sp.building_id = ${buildingIdOf('l')}
          ORDER BY sp.version DESC LIMIT 1) p ON true
       LEFT JOIN app_user u ON u.id = p.published_by
      WHERE l.level = ${LOCATION_LEVEL.flat} AND ${inScope('l', '$1')}
        AND ${byIds ? 'l.id = ANY ($2::int[])' : inScope('l', '$2')}`,
    [sel.scope, byIds ? sel.flatIds : sel.parents, `${month}-01`],
  );
  return rows;
}

const publicationOf = (s: Selected): StatementPublication | null =>
  s.publication_id === null
    ? null
    : { BuildingId: s.building_id, Version: s.version!, PublishedAt: s.published_at!, PublishedBy: s.published_by };

/**
 * The statements of a selection for a month: a flat of a published building as it was published
 * (the latest version), every other flat computed now. In address order.
 */
export function loadStatements(
  db: Queryable,
  month: string,
  sel: { scope: number[] | null; parents: number[] | null } | { scope: number[] | null; flatIds: number[] },
): Promise<FlatStatement[]> {
  return load(db, month, sel, true);
}

/** As loadStatements, the rows only: the history is neither computed nor read (History is empty). */
async function load(
  db: Queryable,
  month: string,
  sel: { scope: number[] | null; parents: number[] | null } | { scope: number[] | null; flatIds: number[] },
  withHistory: boolean,
): Promise<FlatStatement[]> {
  const flats = await selectFlats(db, month, sel);
  if (!flats.length) return [];
  const published = flats.filter((f) => f.publication_id !== null);
  const frozen = new Map<number, FlatStatement>();
  if (published.length) {
    const { rows } = await db.query<{ flat_id: number; statement: FlatStatement }>(
      `SELECT s.flat_id, ${withHistory ? 's.statement' : "s.statement - 'History'"} AS statement FROM statement_snapshot s
         JOIN unnest($1::int[], $2::int[]) AS w(publication_id, flat_id)
           ON w.publication_id = s.publication_id AND w.flat_id = s.flat_id`,
      [published.map((f) => f.publication_id), published.map((f) => f.flat_id)],
    );
    const info = new Map(published.map((f) => [f.flat_id, publicationOf(f)]));
    for (const r of rows) {
      const st = typeof r.statement === 'string' ? (JSON.parse(r.statement) as FlatStatement) : r.statement;
      frozen.set(r.flat_id, {
        ...st,
        History: st.History ?? [],
        Row: { ...st.Row, Published: info.get(r.flat_id) ?? null },
      });
    }
  }
  // Flats added to a building after it was published are shown live.
  const live = flats.filter((f) => !frozen.has(f.flat_id)).map((f) => f.flat_id);
  const liveSel = { flatIds: live, scope: sel.scope };
  const computed = !live.length
    ? []
    : withHistory
      ? await computeStatements(db, month, liveSel)
      : (await computeRows(db, month, liveSel)).map((Row) => ({ Month: month, Row, History: [], DegreeDays: null }));
  if (!frozen.size) return computed;
  // One address order for both: the computed order, with the frozen flats placed by a second lookup.
  const order = await db.query<{ id: number }>(
    `SELECT l.id FROM location l JOIN location b ON b.id = ${buildingIdOf('l')} WHERE l.id = ANY ($1::int[])
      ORDER BY b.country, b.county, b.region, b.city, b.street, building_number(b.building), b.building,
               l.flat_order NULLS FIRST, l.flat, l.id`,
    [flats.map((f) => f.flat_id)],
  );
  const byId = new Map<number, FlatStatement>([...frozen, ...computed.map((c) => [c.Row.FlatId, c] as const)]);
  return order.rows.map((r) => byId.get(r.id)).filter((s): s is FlatStatement => !!s);
}

/** The figures of a selection (the statements without their history). */
export async function statementRows(
  db: Queryable,
  month: string,
  sel: { scope: number[] | null; parents: number[] | null },
): Promise<StatementRow[]> {
  return (await load(db, month, sel, false)).map((s) => s.Row);
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

const FIELDS = ['Current', 'Previous', 'LastYear'] as const;
const address = (r: StatementRow) =>
  [r.City, [r.Street, r.Building].filter(Boolean).join(' '), r.Flat].filter(Boolean).join(', ');

/** The figures that differ between two versions of the same flats' statements. */
export function statementChanges(before: readonly StatementRow[], after: readonly StatementRow[]): StatementChange[] {
  const old = new Map(before.map((r) => [r.FlatId, r]));
  const out: StatementChange[] = [];
  for (const row of after) {
    const prev = old.get(row.FlatId);
    if (!prev) continue;
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
  }
  return out;
}

/** Published against live figures of the selection's published flats: what publishing again would change. */
export async function statementDifference(
  db: Queryable,
  month: string,
  sel: { scope: number[] | null; parents: number[] | null },
): Promise<{ Published: number; Changes: StatementChange[] }> {
  const flats = (await selectFlats(db, month, sel)).filter((f) => f.publication_id !== null);
  if (!flats.length) return { Published: 0, Changes: [] };
  const frozen = await load(db, month, { scope: sel.scope, flatIds: flats.map((f) => f.flat_id) }, false);
  const live = await computeRows(db, month, { scope: sel.scope, flatIds: flats.map((f) => f.flat_id) });
  return {
    Published: new Set(flats.map((f) => f.building_id)).size,
    Changes: statementChanges(
      frozen.filter((s) => s.Row.Published).map((s) => s.Row),
      live,
    ),
  };
}

/**
 * Publishes month M of every building under `locationIds` (null = all): each building gets its
 * next version with every flat's statement frozen as computed now, one audit entry per building
 * (the version, the flats, how many figures changed), and an e-mail queued for each opted-in user
 * whose scope holds a published flat (services/statements/notify.ts sends them).
 */
export async function publishStatements(
  db: Db,
  caller: Caller,
  month: string,
  locationIds: number[] | null,
): Promise<{ Buildings: number; Flats: number; Republished: number; Changes: StatementChange[] }> {
  return db.transaction(async (tx) => {
    // One publisher at a time per database: versions are numbered without gaps or duplicates.
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('statement_publication'))");
    const { rows: ended } = await tx.query<{ ended: boolean }>(
      "SELECT ($1::date + interval '1 month')::timestamp::timestamptz <= now() AS ended",
      [`${month}-01`],
    );
    if (!ended[0]!.ended) throw badRequest('monthNotEndedStatements', { month }, 'month');
    const statements = await computeStatements(tx, month, { scope: null, parents: locationIds });
    const byBuilding = new Map<number, FlatStatement[]>();
    for (const s of statements) {
      const list = byBuilding.get(s.Row.BuildingId) ?? [];
      list.push(s);
      byBuilding.set(s.Row.BuildingId, list);
    }
    const changes: StatementChange[] = [];
    const published: { buildingId: number; version: number; publishedAt: string }[] = [];
    let republished = 0;
    for (const [building, list] of byBuilding) {
      const { rows: prev } = await tx.query<{ id: number; version: number }>(
        `SELECT id, version FROM statement_publication WHERE month = $1::date AND building_id = $2
          ORDER BY version DESC LIMIT 1`,
        [`${month}-01`, building],
      );
      let changed: StatementChange[] = [];
      if (prev[0]) {
        republished++;
        const { rows } = await tx.query<{ statement: FlatStatement | string }>(
          'SELECT statement FROM statement_snapshot WHERE publication_id = $1',
          [prev[0].id],
        );
        const before = rows.map((r) =>
          typeof r.statement === 'string' ? (JSON.parse(r.statement) as FlatStatement).Row : r.statement.Row,
        );
        changed = statementChanges(
          before,
          list.map((s) => s.Row),
        );
        changes.push(...changed);
      }
      const version = (prev[0]?.version ?? 0) + 1;
      const { rows: pub } = await tx.query<{ id: number; at: string }>(
        `INSERT INTO statement_publication (month, building_id, version, published_by)
         VALUES ($1::date, $2, $3, $4) RETURNING id, iso(published_at) AS at`,
        [`${month}-01`, building, version, caller.id],
      );
      await tx.query(
        `INSERT INTO statement_snapshot (publication_id, flat_id, statement)
         SELECT $1, f, s FROM unnest($2::int[], $3::jsonb[]) AS x(f, s)`,
        [pub[0]!.id, list.map((s) => s.Row.FlatId), list.map((s) => JSON.stringify(s))],
      );
      // The billing export of this version, frozen with it (docs/integration.md).
      await freezeBillingExport(tx, {
        publicationId: pub[0]!.id,
        month,
        buildingId: building,
        version,
        publishedAt: pub[0]!.at,
        flats: list.map((s) => s.Row),
      });
      published.push({ buildingId: building, version, publishedAt: pub[0]!.at });
      await recordAudit(tx, {
        actor: caller,
        kind: 'statement.publish',
        entity: 'location',
        entityId: building,
        before: prev[0] ? { Month: month, Version: prev[0].version } : null,
        after: {
          Month: month,
          Version: version,
          Flats: list.length,
          ...(prev[0] ? { ChangedFigures: changed.length } : {}),
        },
      });
    }
    if (byBuilding.size) await queueNotifications(tx, month, [...byBuilding.keys()]);
    // The billing system's receivers (webhooks, e-mails) are told in the same transaction.
    if (published.length) await queueBillingNotices(tx, month, published);
    return { Buildings: byBuilding.size, Flats: statements.length, Republished: republished, Changes: changes };
  });
}

/** One e-mail per opted-in active user with an address whose scope holds a flat of the buildings. */
async function queueNotifications(tx: Queryable, month: string, buildings: number[]): Promise<void> {
  await tx.query(
    `INSERT INTO statement_delivery (month, user_id, email, language)
     SELECT $1::date, u.id, u.email, u.language FROM app_user u
      WHERE u.statement_opt_in AND u.active AND u.email IS NOT NULL
        AND (u.group_id = ${GROUP.operator} OR EXISTS (
              SELECT FROM location_right r JOIN location l ON l.path @> ARRAY[r.location_id]
               WHERE r.user_id = u.id AND l.level = ${LOCATION_LEVEL.flat} AND ${buildingIdOf('l')} = ANY ($2::int[])))`,
    [`${month}-01`, buildings],
  );
}

import {
  type FlatStatement,
  GROUP,
  type HeatParameterChange,
  LOCATION_LEVEL,
  type OccupancyStatement,
  type StatementChange,
  type StatementRow,
} from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { insertRows } from '../../db/insert-rows.js';
import { badRequest } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { buildingIdOf } from '../sql.js';
import { occupantChanges, statementChanges, storedOccupancies } from './difference.js';
import { computeRows, computeStatements } from './figures.js';
import type { FrozenStatements, PublicationFollower } from './followers.js';
import { splitMoves } from './occupancy-figures.js';
import { parameterChanges } from './parameter-changes.js';
import { selectionBuildings } from './selection.js';
import { storedStatement } from './snapshots.js';

/* Publishing a month (docs/statements.md): per building a new version with its flats' snapshots. */

/** 400 naming `month` unless month M has ended. */
async function assertMonthEnded(tx: Queryable, month: string): Promise<void> {
  const { rows } = await tx.query<{ ended: boolean }>(
    "SELECT ($1::date + interval '1 month')::timestamp::timestamptz <= now() AS ended",
    [`${month}-01`],
  );
  if (!rows[0]!.ended) throw badRequest('monthNotEndedStatements', { month }, 'month');
}

function groupByBuilding<T>(items: readonly T[], buildingOf: (t: T) => number): Map<number, T[]> {
  const out = new Map<number, T[]>();
  for (const s of items) {
    const list = out.get(buildingOf(s));
    if (list) list.push(s);
    else out.set(buildingOf(s), [s]);
  }
  return out;
}

/** A building's latest version of the month. */
interface Previous {
  id: number;
  version: number;
}

/** The latest version of the month of every building published in it, by building. */
async function latestVersions(tx: Queryable, month: string): Promise<Map<number, Previous>> {
  const { rows } = await tx.query<Previous & { building_id: number }>(
    `SELECT DISTINCT ON (building_id) building_id, id, version FROM statement_publication
      WHERE month = $1::date ORDER BY building_id, version DESC`,
    [`${month}-01`],
  );
  return new Map(rows.map((r) => [r.building_id, { id: r.id, version: r.version }]));
}

/** The rows (without History) and occupants' splits frozen with the versions `previous`, by publication. */
async function previousSnapshots(tx: Queryable, previous: readonly Previous[]) {
  const out = new Map<number, FrozenStatements & { splits: Map<number, OccupancyStatement[]> }>(
    previous.map((p) => [p.id, { rows: [], splits: new Map() }]),
  );
  if (!previous.length) return out;
  const { rows } = await tx.query<{
    publication_id: number;
    statement: FlatStatement | string;
    occupancies: OccupancyStatement[] | string | null;
  }>(
    `SELECT publication_id, statement - 'History' AS statement, occupancies FROM statement_snapshot
      WHERE publication_id = ANY ($1::int[])`,
    [previous.map((p) => p.id)],
  );
  for (const r of rows) {
    const row = storedStatement(r.statement).Row;
    const o = storedOccupancies(r.occupancies);
    const snap = out.get(r.publication_id)!;
    snap.rows.push(row);
    if (o) snap.splits.set(row.FlatId, o);
  }
  return out;
}

/** What a building's new version would change against its previous one (none: its first). */
function changesOf(
  before: { rows: StatementRow[]; splits: ReadonlyMap<number, OccupancyStatement[]> } | undefined,
  rows: readonly StatementRow[],
  splits: ReadonlyMap<number, OccupancyStatement[]>,
) {
  if (!before) return { changed: [] as StatementChange[], parameters: [] as HeatParameterChange[] };
  return {
    changed: [...statementChanges(before.rows, rows), ...occupantChanges(rows, before.splits, splits)],
    // The method's parameters frozen with the figures (docs/heat-method.md, "Publication").
    parameters: parameterChanges(before.rows, rows),
  };
}

/** A building's plan: its rows now, its previous version and what the new one would change. */
interface BuildingPlan {
  building: number;
  rows: StatementRow[];
  prev: Previous | null;
  changed: StatementChange[];
  parameters: HeatParameterChange[];
  followerChanged: boolean;
}

/**
 * The new versions' publications, snapshots (each flat's statement and its occupants' split) and audit
 * entries, a few statements for all the buildings.
 */
async function writeVersions(
  tx: Queryable,
  caller: Caller,
  month: string,
  plans: readonly BuildingPlan[],
  statements: ReadonlyMap<number, readonly FlatStatement[]>,
  splits: ReadonlyMap<number, OccupancyStatement[]>,
) {
  const { rows: pubs } = await tx.query<{ id: number; building_id: number; at: string }>(
    `INSERT INTO statement_publication (month, building_id, version, published_by)
     SELECT $1::date, b, v, $4 FROM unnest($2::int[], $3::int[]) WITH ORDINALITY AS x(b, v, n) ORDER BY n
     RETURNING id, building_id, iso(published_at) AS at`,
    [`${month}-01`, plans.map((p) => p.building), plans.map((p) => (p.prev?.version ?? 0) + 1), caller.id],
  );
  const byBuilding = new Map(pubs.map((p) => [p.building_id, p]));
  const written = plans.map((plan) => ({
    plan,
    id: byBuilding.get(plan.building)!.id,
    at: byBuilding.get(plan.building)!.at,
  }));
  const snaps = written.flatMap((w) => (statements.get(w.plan.building) ?? []).map((s) => ({ id: w.id, s })));
  // Each occupant's figures of a flat with a move in the month, frozen with the flat's (docs/occupancies.md).
  await insertRows(
    tx,
    'INSERT INTO statement_snapshot (publication_id, flat_id, statement, occupancies) VALUES',
    '(?::int, ?::int, ?::jsonb, ?::jsonb)',
    snaps.map((x) => {
      const o = splits.get(x.s.Row.FlatId);
      return [x.id, x.s.Row.FlatId, JSON.stringify(x.s), o ? JSON.stringify(o) : null];
    }),
  );
  await recordAudit(
    tx,
    written.map(({ plan: p }) => ({
      actor: caller,
      kind: 'statement.publish',
      entity: 'location',
      entityId: p.building,
      before: p.prev ? { Month: month, Version: p.prev.version } : null,
      after: {
        Month: month,
        Version: (p.prev?.version ?? 0) + 1,
        Flats: statements.get(p.building)?.length ?? 0,
        ...(p.prev ? { ChangedFigures: p.changed.length } : {}),
        ...(p.parameters.length ? { ChangedParameters: p.parameters.length } : {}),
        ...(p.followerChanged ? { ChangedExport: true } : {}),
      },
    })),
  );
  return written;
}

/**
 * Publishes month M of every building under `locationIds` (null = all): each building gets its
 * next version with every flat's statement frozen as computed now, one audit entry per building
 * (the version, the flats, how many figures changed), and an e-mail queued for each opted-in user
 * whose scope holds a published flat (services/statements/notify.ts sends them), and each occupant's
 * delivery queued (services/deliveries: a notice with their link, or a letter); those two and the
 * billing export are `followers` (server/src/publication.ts). A building
 * already published whose figures are the same is left alone (no version, no mail) unless `force`.
 *
 * Every building at once (docs/statements.md, "Publishing"): the figures in one computation, the
 * previous versions in two queries, the new ones in a few statements. When every building has a
 * version already, the figures are computed without their 13 months' history first (the comparison
 * reads none), and with it only for the buildings that get a new version.
 */
export async function publishStatements(
  db: Db,
  caller: Caller,
  month: string,
  locationIds: number[] | null,
  force: boolean,
  followers: readonly PublicationFollower[],
): Promise<{
  Buildings: number;
  Flats: number;
  Republished: number;
  Unchanged: number;
  Changes: StatementChange[];
  ParameterChanges: HeatParameterChange[];
}> {
  return db.transaction(async (tx) => {
    // One publisher at a time per database: versions are numbered without gaps or duplicates.
    await tx.query("SELECT pg_advisory_xact_lock(hashtext('statement_publication'))");
    await assertMonthEnded(tx, month);
    const latest = await latestVersions(tx, month);
    const selection = { scope: null, parents: locationIds };
    const rowsFirst = !force && (await selectionBuildings(tx, null, locationIds)).every((b) => latest.has(b.id));
    const full = rowsFirst ? null : await computeStatements(tx, month, selection);
    const rows = full ? full.map((s) => s.Row) : await computeRows(tx, month, selection);
    const buildings = groupByBuilding(rows, (r) => r.BuildingId);
    const splits = await splitMoves(tx, month, rows);
    const before = await previousSnapshots(
      tx,
      [...buildings.keys()].flatMap((b) => latest.get(b) ?? []),
    );
    const plans: BuildingPlan[] = [...buildings].map(([building, list]) => {
      const prev = latest.get(building) ?? null;
      return {
        building,
        rows: list,
        prev,
        ...changesOf(prev ? before.get(prev.id) : undefined, list, splits),
        followerChanged: false,
      };
    });
    // The same figures and parameters again, and nothing built on the version would differ (a device's
    // month-end value moved without changing a figure still changes the billing export): nothing to freeze
    // anew and nothing to tell anyone, unless asked.
    const same = plans.filter((p) => p.prev && p.changed.length === 0 && p.parameters.length === 0 && !force);
    const unchanged = same.map((p) => ({
      previousPublicationId: p.prev!.id,
      month,
      buildingId: p.building,
      flats: p.rows,
    }));
    for (const f of followers) {
      if (!f.differs || !unchanged.length) continue;
      const differ = await f.differs(tx, unchanged, { splits, previous: before });
      for (const p of same) if (differ.has(p.building)) p.followerChanged = true;
    }
    const sameSet = new Set(same.filter((p) => !p.followerChanged));
    const publishing = plans.filter((p) => !sameSet.has(p));
    const statements = groupByBuilding(
      full ??
        (publishing.length
          ? await computeStatements(tx, month, {
              scope: null,
              flatIds: publishing.flatMap((p) => p.rows.map((r) => r.FlatId)),
            })
          : []),
      (s) => s.Row.BuildingId,
    );
    const written = publishing.length ? await writeVersions(tx, caller, month, publishing, statements, splits) : [];
    // What is built on these versions follows them (the billing export is frozen with them: docs/integration.md).
    const published = written.map(({ plan, id, at }) => ({
      publicationId: id,
      month,
      buildingId: plan.building,
      version: (plan.prev?.version ?? 0) + 1,
      publishedAt: at,
      flats: (statements.get(plan.building) ?? []).map((s) => s.Row),
    }));
    for (const follower of followers) if (published.length) await follower.buildings?.(tx, published, { splits });
    const done = written.map(({ plan, at }) => ({
      buildingId: plan.building,
      version: (plan.prev?.version ?? 0) + 1,
      publishedAt: at,
      figuresChanged: !plan.followerChanged,
    }));
    // The users' notice only where a statement reads differently (not for an export-only version).
    const buildingIds = done.filter((p) => p.figuresChanged).map((p) => p.buildingId);
    if (buildingIds.length) await queueNotifications(tx, month, buildingIds);
    // The billing system's receivers and the occupants' deliveries, in the same transaction.
    for (const follower of followers) await follower.published?.(tx, month, done);
    return {
      Buildings: done.length,
      Flats: publishing.reduce((n, p) => n + (statements.get(p.building)?.length ?? 0), 0),
      Republished: publishing.filter((p) => p.prev).length,
      Unchanged: buildings.size - done.length,
      Changes: publishing.flatMap((p) => p.changed),
      ParameterChanges: publishing.flatMap((p) => p.parameters),
    };
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

// Frozen copy of server/src/services/statements/publish.ts at commit 56f68cb, for bench:statements only.
import {
  type FlatStatement,
  GROUP,
  type HeatParameterChange,
  LOCATION_LEVEL,
  type OccupancyStatement,
  type StatementChange,
} from '@rodmenys/contract';
import type { Db, Queryable } from '@rodmenys/server/db/db.js';
import { badRequest } from '@rodmenys/server/errors.js';
import { recordAudit } from '@rodmenys/server/services/audit/record-audit.js';
import type { Caller } from '@rodmenys/server/services/auth/caller.js';
import { buildingIdOf } from '@rodmenys/server/services/sql.js';
import { splitChanges, statementChanges, storedOccupancies } from '@rodmenys/server/services/statements/difference.js';
import { parameterChanges } from '@rodmenys/server/services/statements/parameter-changes.js';
import { computeStatements } from './figures.js';
import type { PublicationFollower } from './followers.js';
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

function groupByBuilding(statements: readonly FlatStatement[]): Map<number, FlatStatement[]> {
  const out = new Map<number, FlatStatement[]>();
  for (const s of statements) {
    const list = out.get(s.Row.BuildingId);
    if (list) list.push(s);
    else out.set(s.Row.BuildingId, [s]);
  }
  return out;
}

/**
 * The building's latest version of the month and what the new one changes against it: the flats'
 * figures and their occupants' (`splits` receives the new per-occupancy splits, docs/occupancies.md).
 */
async function previousVersion(
  tx: Queryable,
  month: string,
  building: number,
  list: readonly FlatStatement[],
  splits: Map<number, OccupancyStatement[]>,
) {
  const { rows: prev } = await tx.query<{ id: number; version: number }>(
    `SELECT id, version FROM statement_publication WHERE month = $1::date AND building_id = $2
      ORDER BY version DESC LIMIT 1`,
    [`${month}-01`, building],
  );
  const rows = list.map((s) => s.Row);
  if (!prev[0]) {
    await splitChanges(tx, month, rows, null, splits);
    return { prev: null, changed: [] as StatementChange[], parameters: [] as HeatParameterChange[] };
  }
  const { rows: snaps } = await tx.query<{
    statement: FlatStatement | string;
    occupancies: OccupancyStatement[] | string | null;
  }>('SELECT statement, occupancies FROM statement_snapshot WHERE publication_id = $1', [prev[0].id]);
  const before = snaps.map((r) => storedStatement(r.statement).Row);
  const frozen = new Map<number, OccupancyStatement[]>();
  snaps.forEach((r, i) => {
    const o = storedOccupancies(r.occupancies);
    if (o) frozen.set(before[i]!.FlatId, o);
  });
  return {
    prev: prev[0],
    changed: [...statementChanges(before, rows), ...(await splitChanges(tx, month, rows, frozen, splits))],
    // The method's parameters frozen with the figures (docs/heat-method.md, "Publication").
    parameters: parameterChanges(before, rows),
  };
}

/** Whether any follower's frozen state of the building's previous version would differ now. */
async function followersDiffer(
  tx: Queryable,
  followers: readonly PublicationFollower[],
  previousPublicationId: number,
  month: string,
  buildingId: number,
  list: readonly FlatStatement[],
): Promise<boolean> {
  const flats = list.map((s) => s.Row);
  for (const f of followers)
    if (await f.differs?.(tx, { previousPublicationId, month, buildingId, flats })) return true;
  return false;
}

/** One building's next version (null: unchanged, and not forced): its publication, its flats' snapshots and an audit entry. */
async function publishBuilding(
  tx: Queryable,
  caller: Caller,
  month: string,
  building: number,
  list: readonly FlatStatement[],
  force: boolean,
  followers: readonly PublicationFollower[],
): Promise<{
  republished: boolean;
  changed: StatementChange[];
  parameters: HeatParameterChange[];
  version: number;
  publishedAt: string;
  figuresChanged: boolean;
} | null> {
  const splits = new Map<number, OccupancyStatement[]>();
  const { prev, changed, parameters } = await previousVersion(tx, month, building, list, splits);
  // The same figures and parameters again, and nothing built on the version would differ (a device's
  // month-end value moved without changing a figure still changes the billing export): nothing to freeze
  // anew and nothing to tell anyone, unless asked.
  const sameFigures = !!prev && changed.length === 0 && parameters.length === 0 && !force;
  const followerChanged = sameFigures && (await followersDiffer(tx, followers, prev.id, month, building, list));
  if (sameFigures && !followerChanged) return null;
  const version = (prev?.version ?? 0) + 1;
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
  // Each occupant's figures of a flat with a move in the month, frozen with the flat's (docs/occupancies.md).
  if (splits.size)
    await tx.query(
      `UPDATE statement_snapshot s SET occupancies = x.o FROM unnest($2::int[], $3::jsonb[]) AS x(f, o)
        WHERE s.publication_id = $1 AND s.flat_id = x.f`,
      [pub[0]!.id, [...splits.keys()], [...splits.values()].map((o) => JSON.stringify(o))],
    );
  // What is built on this version follows it (the billing export is frozen with it: docs/integration.md).
  for (const follower of followers)
    await follower.building?.(tx, {
      publicationId: pub[0]!.id,
      month,
      buildingId: building,
      version,
      publishedAt: pub[0]!.at,
      flats: list.map((s) => s.Row),
    });
  await recordAudit(tx, {
    actor: caller,
    kind: 'statement.publish',
    entity: 'location',
    entityId: building,
    before: prev ? { Month: month, Version: prev.version } : null,
    after: {
      Month: month,
      Version: version,
      Flats: list.length,
      ...(prev ? { ChangedFigures: changed.length } : {}),
      ...(parameters.length ? { ChangedParameters: parameters.length } : {}),
      ...(followerChanged ? { ChangedExport: true } : {}),
    },
  });
  return {
    republished: !!prev,
    changed,
    parameters,
    version,
    publishedAt: pub[0]!.at,
    figuresChanged: !followerChanged,
  };
}

/**
 * Publishes month M of every building under `locationIds` (null = all): each building gets its
 * next version with every flat's statement frozen as computed now, one audit entry per building
 * (the version, the flats, how many figures changed), and an e-mail queued for each opted-in user
 * whose scope holds a published flat (services/statements/notify.ts sends them), and each occupant's
 * delivery queued (services/deliveries: a notice with their link, or a letter); those two and the
 * billing export are `followers` (server/src/publication.ts). A building
 * already published whose figures are the same is left alone (no version, no mail) unless `force`.
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
    const statements = await computeStatements(tx, month, { scope: null, parents: locationIds });
    const buildings = groupByBuilding(statements);
    const changes: StatementChange[] = [];
    const parameters: HeatParameterChange[] = [];
    const published: { buildingId: number; version: number; publishedAt: string; figuresChanged: boolean }[] = [];
    let republished = 0;
    let flats = 0;
    for (const [building, list] of buildings) {
      const done = await publishBuilding(tx, caller, month, building, list, force, followers);
      if (!done) continue;
      flats += list.length;
      if (done.republished) republished++;
      changes.push(...done.changed);
      parameters.push(...done.parameters);
      published.push({
        buildingId: building,
        version: done.version,
        publishedAt: done.publishedAt,
        figuresChanged: done.figuresChanged,
      });
    }
    // The users' notice only where a statement reads differently (not for an export-only version).
    const buildingIds = published.filter((p) => p.figuresChanged).map((p) => p.buildingId);
    if (buildingIds.length) await queueNotifications(tx, month, buildingIds);
    // The billing system's receivers and the occupants' deliveries, in the same transaction.
    for (const follower of followers) await follower.published?.(tx, month, published);
    return {
      Buildings: published.length,
      Flats: flats,
      Republished: republished,
      Unchanged: buildings.size - published.length,
      Changes: changes,
      ParameterChanges: parameters,
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

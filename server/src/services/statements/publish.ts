import { type FlatStatement, GROUP, LOCATION_LEVEL, type StatementChange } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { buildingIdOf } from '../sql.js';
import { statementChanges } from './difference.js';
import { computeStatements } from './figures.js';
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

/** The building's latest version of the month and what the new one changes against it. */
async function previousVersion(tx: Queryable, month: string, building: number, list: readonly FlatStatement[]) {
  const { rows: prev } = await tx.query<{ id: number; version: number }>(
    `SELECT id, version FROM statement_publication WHERE month = $1::date AND building_id = $2
      ORDER BY version DESC LIMIT 1`,
    [`${month}-01`, building],
  );
  if (!prev[0]) return { prev: null, changed: [] as StatementChange[] };
  const { rows } = await tx.query<{ statement: FlatStatement | string }>(
    'SELECT statement FROM statement_snapshot WHERE publication_id = $1',
    [prev[0].id],
  );
  const before = rows.map((r) => storedStatement(r.statement).Row);
  return {
    prev: prev[0],
    changed: statementChanges(
      before,
      list.map((s) => s.Row),
    ),
  };
}

/** One building's next version: its publication, its flats' snapshots and an audit entry. */
async function publishBuilding(
  tx: Queryable,
  caller: Caller,
  month: string,
  building: number,
  list: readonly FlatStatement[],
): Promise<{ republished: boolean; changed: StatementChange[] }> {
  const { prev, changed } = await previousVersion(tx, month, building, list);
  const version = (prev?.version ?? 0) + 1;
  const { rows: pub } = await tx.query<{ id: number }>(
    `INSERT INTO statement_publication (month, building_id, version, published_by)
     VALUES ($1::date, $2, $3, $4) RETURNING id`,
    [`${month}-01`, building, version, caller.id],
  );
  await tx.query(
    `INSERT INTO statement_snapshot (publication_id, flat_id, statement)
     SELECT $1, f, s FROM unnest($2::int[], $3::jsonb[]) AS x(f, s)`,
    [pub[0]!.id, list.map((s) => s.Row.FlatId), list.map((s) => JSON.stringify(s))],
  );
  await recordAudit(tx, {
    actor: caller,
    kind: 'statement.publish',
    entity: 'location',
    entityId: building,
    before: prev ? { Month: month, Version: prev.version } : null,
    after: { Month: month, Version: version, Flats: list.length, ...(prev ? { ChangedFigures: changed.length } : {}) },
  });
  return { republished: !!prev, changed };
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
    await assertMonthEnded(tx, month);
    const statements = await computeStatements(tx, month, { scope: null, parents: locationIds });
    const buildings = groupByBuilding(statements);
    const changes: StatementChange[] = [];
    let republished = 0;
    for (const [building, list] of buildings) {
      const done = await publishBuilding(tx, caller, month, building, list);
      if (done.republished) republished++;
      changes.push(...done.changed);
    }
    if (buildings.size) await queueNotifications(tx, month, [...buildings.keys()]);
    return { Buildings: buildings.size, Flats: statements.length, Republished: republished, Changes: changes };
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

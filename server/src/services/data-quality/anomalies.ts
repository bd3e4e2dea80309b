import { type Anomaly, type AnomalyCount, type AnomalyState, LOCATION_LEVEL, type RuleCode } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { inScope } from '../sql.js';
import { accountNameSql } from '../users/account-scope.js';

export interface AnomalyFilter {
  rule?: RuleCode;
  state?: AnomalyState;
  deviceTypeId?: number;
  buildingId?: number;
  deviceId?: number;
  dateFrom?: string;
  dateTill?: string;
  /** The caller's scope (null = all). */
  scope: number[] | null;
}

/** At most this many rows in a list (the counts cover everything). */
export const MAX_ANOMALIES = 5000;

/**
 * The evidence's `buildings` (a silent collector's or connection's, docs/data-quality.md) as a reader
 * with the scope `param` may see them: only the labels of buildings in that scope, in their order. The
 * anomaly stands on the subject's first building; the others it serves may be another manager's.
 */
export const evidenceBuildingsInScope = (alias: string, param: string) =>
  `(SELECT coalesce(jsonb_agg(x.value ORDER BY x.n), '[]'::jsonb)
      FROM jsonb_array_elements_text(${alias}.evidence -> 'buildings') WITH ORDINALITY AS x(value, n)
     WHERE ${param}::int[] IS NULL
        OR EXISTS (SELECT FROM location sb WHERE sb.level = ${LOCATION_LEVEL.building} AND sb.path && ${param}::int[]
                      AND address_label(sb) = x.value))`;

/** The evidence with its `buildings` narrowed to the scope `param` (unchanged without buildings or a scope). */
const evidenceInScope = (alias: string, param: string) =>
  `CASE WHEN ${param}::int[] IS NULL OR jsonb_typeof(${alias}.evidence -> 'buildings') IS DISTINCT FROM 'array'
        THEN ${alias}.evidence
        ELSE jsonb_set(${alias}.evidence, '{buildings}', ${evidenceBuildingsInScope(alias, param)}) END`;

/**
 * An anomaly's columns; who acknowledged it as `reader` may see it (docs/security.md, "Names of accounts");
 * `$1` of the query is the reader's scope.
 */
const columns = (
  reader: Pick<Caller, 'id' | 'groupId'>,
) => `a.id AS "Id", a.rule AS "Rule", a.state AS "State", a.building_id AS "BuildingId",
  address_label(b) AS "Address", a.device_id AS "DeviceId", d.device_code AS "DeviceCode",
  d.device_type_id AS "DeviceTypeId", fl.flat AS "Flat",
  CASE WHEN a.month > '0001-01-01' THEN to_char(a.month, 'YYYY-MM') END AS "Month",
  ${evidenceInScope('a', '$1')} AS "Evidence", iso(a.opened_at) AS "OpenedAt", iso(a.last_seen_at) AS "LastSeenAt",
  iso(a.resolved_at) AS "ResolvedAt", iso(a.acknowledged_at) AS "AcknowledgedAt", ${accountNameSql(reader, 'u')} AS "AcknowledgedBy",
  a.comment AS "Comment"`;

const FROM = `FROM anomaly a JOIN location b ON b.id = a.building_id
  LEFT JOIN device d ON d.id = a.device_id LEFT JOIN location fl ON fl.id = d.location_id AND fl.level = ${LOCATION_LEVEL.flat}
  LEFT JOIN app_user u ON u.id = a.acknowledged_by`;

/**
 * The filter as SQL: scope first (the building's path against the caller's
 * granted locations, like every other query), then the optional filters. The
 * period keeps anomalies open at some point in it.
 */
const WHERE = `WHERE ${inScope('b', '$1')}
  AND ($2::text IS NULL OR a.rule = $2) AND ($3::text IS NULL OR a.state = $3)
  AND ($4::int IS NULL OR d.device_type_id = $4) AND ($5::int IS NULL OR a.building_id = $5)
  AND ($6::int IS NULL OR a.device_id = $6)
  AND ($7::date IS NULL OR coalesce(a.resolved_at, 'infinity') >= $7::date::timestamp::timestamptz)
  AND ($8::date IS NULL OR a.opened_at < ($8::date + 1)::timestamp::timestamptz)`;

const params = (f: AnomalyFilter) => {
  if (f.dateFrom && f.dateTill && f.dateFrom > f.dateTill) throw badRequest('fromAfterTill', {}, 'dateFrom');
  return [
    f.scope,
    f.rule ?? null,
    f.state ?? null,
    f.deviceTypeId ?? null,
    f.buildingId ?? null,
    f.deviceId ?? null,
    f.dateFrom ?? null,
    f.dateTill ?? null,
  ];
};

/** Anomalies in scope matching the filter, newest first. */
export async function listAnomalies(
  db: Queryable,
  f: AnomalyFilter,
  reader: Pick<Caller, 'id' | 'groupId'>,
): Promise<Anomaly[]> {
  const { rows } = await db.query<Anomaly>(
    `SELECT ${columns(reader)} ${FROM} ${WHERE} ORDER BY a.opened_at DESC, a.id DESC LIMIT ${MAX_ANOMALIES}`,
    params(f),
  );
  return rows;
}

/** Counts per building and rule, by state, for the same filter. */
export async function countAnomalies(db: Queryable, f: AnomalyFilter): Promise<AnomalyCount[]> {
  const { rows } = await db.query<AnomalyCount>(
    `SELECT a.building_id AS "BuildingId", address_label(b) AS "Address", a.rule AS "Rule",
            count(*) FILTER (WHERE a.state = 'open')::int AS "Open",
            count(*) FILTER (WHERE a.state = 'acknowledged')::int AS "Acknowledged",
            count(*) FILTER (WHERE a.state = 'resolved')::int AS "Resolved"
       ${FROM} ${WHERE}
      GROUP BY a.building_id, b.id, a.rule ORDER BY 2, 3`,
    params(f),
  );
  return rows;
}

async function findAnomaly(db: Queryable, caller: Caller, id: number, scope: number[] | null): Promise<Anomaly> {
  const { rows } = await db.query<Anomaly>(
    `SELECT ${columns(caller)} ${FROM} WHERE a.id = $2 AND ${inScope('b', '$1')}`,
    [scope, id],
  );
  if (!rows[0]) throw notFound('anomalyNotFound');
  return rows[0];
}

/**
 * Acknowledges an open anomaly (it stays until its condition ends) or resolves
 * one by hand, with a comment; audited. 404 outside the caller's scope.
 */
export async function changeAnomaly(
  db: Db,
  caller: Caller,
  scope: number[] | null,
  id: number,
  action: 'acknowledge' | 'resolve',
  comment: string,
): Promise<Anomaly> {
  const text = comment.trim();
  if (!text) throw badRequest('commentRequired', {}, 'comment');
  return db.transaction(async (tx) => {
    const before = await findAnomaly(tx, caller, id, scope);
    if (before.State === 'resolved') throw conflict('anomalyResolved');
    if (action === 'acknowledge' && before.State !== 'open') throw conflict('anomalyAcknowledged');
    await tx.query(
      action === 'acknowledge'
        ? `UPDATE anomaly SET state = 'acknowledged', acknowledged_at = now(), acknowledged_by = $2, comment = $3 WHERE id = $1`
        : `UPDATE anomaly SET state = 'resolved', resolved_at = now(), acknowledged_by = $2,
                  acknowledged_at = coalesce(acknowledged_at, now()), comment = $3 WHERE id = $1`,
      [id, caller.id, text],
    );
    const after = await findAnomaly(tx, caller, id, scope);
    await recordAudit(tx, {
      actor: caller,
      kind: action === 'acknowledge' ? 'anomaly.acknowledge' : 'anomaly.resolve',
      entity: 'anomaly',
      entityId: id,
      before: { State: before.State, Comment: before.Comment },
      after: { State: after.State, Comment: after.Comment, Rule: after.Rule, DeviceId: after.DeviceId },
    });
    return after;
  });
}

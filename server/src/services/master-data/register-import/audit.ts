import { ADDRESS_COLUMNS, type AuditKind, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Tx } from '../../../db/db.js';
import type { Actor } from '../../audit/record-audit.js';
import { deviceAuditSql } from '../device-audit.js';

/**
 * The audit entries of an import are built in SQL, in the statement that writes the rows,
 * from the rows themselves: for 50,000 rows far cheaper than sending JSON, and one
 * definition per kind of record, for created and changed rows alike.
 */

/** An audit shape: SQL over a row of the written table, named by the alias given. */
export type AuditShape = (row: string) => string;

/** Objects and clients. */
export const detailsAudit: AuditShape = (r) =>
  `jsonb_build_object('Code', ${r}.code, 'Name', ${r}.name, 'TypeCode', ${r}.type_code,
    'TypeName', ${r}.type_name, 'CategoryCode', ${r}.category_code, 'CategoryName', ${r}.category_name)`;

/** Locations; a flat also names its client. */
export const locationAudit: AuditShape = (r) =>
  `jsonb_build_object('Level', ${r}.level, 'Name', ${r}.name, 'FlatOrder', ${r}.flat_order,
    'Path', concat_ws(', ', ${ADDRESS_COLUMNS.map((c) => `${r}.${c}`).join(', ')}))
  || CASE WHEN ${r}.level = ${LOCATION_LEVEL.flat} THEN jsonb_build_object('ClientCode', (SELECT code FROM client WHERE id = ${r}.client_id),
                                                     'AreaM2', ${r}.area_m2::float8)
          ELSE '{}' END`;

/** Devices: the shape every screen logs (device-audit.ts). */
export const deviceAudit: AuditShape = deviceAuditSql;

interface Logged {
  kind: AuditKind;
  entity: string;
  shape: AuditShape;
}

const actorParams = (actor: Actor) => [actor?.id ?? null, actor?.username ?? null];

/**
 * Runs a bulk INSERT (`insert`, with `params`) and logs every inserted row as created.
 * Returns the `returning` columns of the inserted rows.
 */
export async function insertAudited<R>(
  tx: Tx,
  actor: Actor,
  insert: string,
  params: unknown[],
  audit: Logged & { returning: string },
): Promise<R[]> {
  const n = params.length;
  const { rows } = await tx.query<R>(
    `WITH ins AS (${insert} RETURNING *),
          logged AS (
            INSERT INTO audit_log (actor_id, actor_username, kind, entity, entity_id, after)
            SELECT $${n + 1}::int, $${n + 2}::text, '${audit.kind}', '${audit.entity}', ins.id::text, ${audit.shape('ins')}
              FROM ins)
     SELECT ${audit.returning} FROM ins`,
    [...params, ...actorParams(actor)],
  );
  return rows;
}

/**
 * A bulk UPDATE of `table` (aliased `x`) from the rows of `input` (`unnest(…) AS u(…)`,
 * with `params`) where `match` holds, setting `set`; logs every updated row with its
 * state before and after, both in `shape`. One statement: its CTEs all see the rows as
 * they were before it.
 */
export async function updateAudited(
  tx: Tx,
  actor: Actor,
  update: { table: string; input: string; match: string; set: string; params: unknown[] },
  audit: Logged,
): Promise<void> {
  const n = update.params.length;
  await tx.query(
    `WITH u AS (SELECT * FROM ${update.input}),
          old AS (SELECT x.id, ${audit.shape('x')} AS before FROM ${update.table} x JOIN u ON ${update.match}),
          upd AS (UPDATE ${update.table} x SET ${update.set} FROM u WHERE ${update.match} RETURNING x.*),
          logged AS (
            INSERT INTO audit_log (actor_id, actor_username, kind, entity, entity_id, before, after)
            SELECT $${n + 1}::int, $${n + 2}::text, '${audit.kind}', '${audit.entity}', upd.id::text, old.before,
                   ${audit.shape('upd')}
              FROM upd JOIN old ON old.id = upd.id)
     SELECT count(*) FROM upd`,
    [...update.params, ...actorParams(actor)],
  );
}

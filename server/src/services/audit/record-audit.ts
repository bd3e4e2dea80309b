import type { AuditEntity, AuditKind } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';

/** Who made a change: a signed-in user (a Caller fits), or null for the system (seeding). */
export type Actor = { id: number; username: string } | null;

export interface AuditRecord {
  actor: Actor;
  kind: AuditKind;
  /** The table or concept changed: 'device', 'location', 'user', 'collectorKey', … (each named in lt and en). */
  entity: AuditEntity;
  entityId: string | number | null;
  /** The entity before the change (null when created) and after it (null when deleted). Never secrets. */
  before: unknown;
  after: unknown;
}

/** The same JSON value, whatever the order of object keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

/** Both sides recorded and equal: the "change" changed nothing. */
export const isUnchanged = (r: AuditRecord) => r.before != null && r.after != null && sameJson(r.before, r.after);

/**
 * Appends entries to the audit log (migration 020; the table refuses UPDATE and
 * DELETE). Call it with the transaction that makes the change, so the change
 * and its entry commit or roll back together: `db.transaction(tx => { …;
 * await recordAudit(tx, {...}) })`. Used by master data, users and rights, and
 * collector keys. Several records go in one statement.
 */
export async function recordAudit(tx: Queryable, record: AuditRecord | AuditRecord[]): Promise<void> {
  // A save that changes nothing is not a change: no entry.
  const records = (Array.isArray(record) ? record : [record]).filter((r) => !isUnchanged(r));
  if (!records.length) return;
  // One JSON document for the whole batch: much cheaper to send and parse than
  // arrays of JSON texts (a register import writes 100,000 entries).
  await tx.query(
    `INSERT INTO audit_log (actor_id, actor_username, kind, entity, entity_id, before, after)
     SELECT r.actor_id, r.actor_username, r.kind, r.entity, r.entity_id, r.before, r.after
       FROM json_to_recordset($1::json)
         AS r(actor_id int, actor_username text, kind text, entity text, entity_id text, before jsonb, after jsonb)`,
    [
      JSON.stringify(
        records.map((r) => ({
          actor_id: r.actor?.id ?? null,
          actor_username: r.actor?.username ?? null,
          kind: r.kind,
          entity: r.entity,
          entity_id: r.entityId === null ? null : String(r.entityId),
          before: r.before ?? null,
          after: r.after ?? null,
        })),
      ),
    ],
  );
}

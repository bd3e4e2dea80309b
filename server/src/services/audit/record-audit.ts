import type { AuditKind } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';

/** Who made a change: a signed-in user (a Caller fits), or null for the system (seeding). */
export type Actor = { id: number; username: string } | null;

export interface AuditRecord {
  actor: Actor;
  kind: AuditKind;
  /** The table or concept changed: 'device', 'location', 'user', 'collectorKey', … */
  entity: string;
  entityId: string | number | null;
  /** The entity before the change (null when created) and after it (null when deleted). Never secrets. */
  before: unknown;
  after: unknown;
}

/**
 * Appends entries to the audit log (migration 020; the table refuses UPDATE and
 * DELETE). Call it with the transaction that makes the change, so the change
 * and its entry commit or roll back together: `db.transaction(tx => { …;
 * await recordAudit(tx, {...}) })`. Used by master data, users and rights, and
 * collector keys. Several records go in one statement.
 */
export async function recordAudit(tx: Queryable, record: AuditRecord | AuditRecord[]): Promise<void> {
  const records = Array.isArray(record) ? record : [record];
  if (!records.length) return;
  await tx.query(
    `INSERT INTO audit_log (actor_id, actor_username, kind, entity, entity_id, before, after)
     SELECT * FROM unnest($1::int[], $2::text[], $3::text[], $4::text[], $5::text[], $6::jsonb[], $7::jsonb[])`,
    [
      records.map((r) => r.actor?.id ?? null),
      records.map((r) => r.actor?.username ?? null),
      records.map((r) => r.kind),
      records.map((r) => r.entity),
      records.map((r) => (r.entityId === null ? null : String(r.entityId))),
      records.map((r) => json(r.before)),
      records.map((r) => json(r.after)),
    ],
  );
}

const json = (value: unknown) => (value === null || value === undefined ? null : JSON.stringify(value));

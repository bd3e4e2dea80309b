import { createHash, randomBytes } from 'node:crypto';
import type { CollectorKey } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { conflict, notFound } from '../../errors.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';

/** Keys start with this, so that a leaked one is recognisable (secret scanners, logs). */
const KEY_PREFIX = 'rmc_';
const hashKey = (key: string) => createHash('sha256').update(key).digest();

const COLUMNS = `k.id AS "Id", k.name AS "Name", k.prefix AS "Prefix", iso(k.created_at) AS "CreatedAt",
  (SELECT u.username FROM app_user u WHERE u.id = k.created_by) AS "CreatedBy",
  iso(k.last_used_at) AS "LastUsedAt", iso(k.revoked_at) AS "RevokedAt"`;

/** The audit entry of a key's creation or revocation (its secret never goes there). */
const auditKey = (db: Queryable, actor: Actor, kind: 'collectorKey.create' | 'collectorKey.revoke', k: CollectorKey) =>
  recordAudit(db, {
    actor,
    kind,
    entity: 'collectorKey',
    entityId: k.Id,
    before: null,
    after: { Name: k.Name, Prefix: k.Prefix, RevokedAt: k.RevokedAt },
  });

/**
 * Creates a collector key; the key is returned here only (the database keeps its sha256).
 * Recorded in the audit log as `actor` (null = the command line); pass a transaction.
 */
export async function createCollectorKey(
  db: Queryable,
  name: string,
  createdBy: number | null,
  actor: Actor = null,
): Promise<CollectorKey & { Key: string }> {
  const key = KEY_PREFIX + randomBytes(32).toString('base64url');
  // Names are unique ignoring case (migration 055): a taken one is a 409, not the index's error.
  const { rows } = await db.query<CollectorKey>(
    `WITH k AS (INSERT INTO collector_key (name, key_hash, prefix, created_by) VALUES ($1, $2, $3, $4)
                ON CONFLICT (lower(trim(name))) DO NOTHING RETURNING *)
     SELECT ${COLUMNS} FROM k`,
    [name.trim(), hashKey(key), key.slice(0, KEY_PREFIX.length + 6), createdBy],
  );
  const created = rows[0];
  if (!created) throw conflict('collectorKeyNameTaken', { name: name.trim() });
  await auditKey(db, actor, 'collectorKey.create', created);
  return { ...created, Key: key };
}

export async function listCollectorKeys(db: Queryable): Promise<CollectorKey[]> {
  const { rows } = await db.query<CollectorKey>(
    `SELECT ${COLUMNS} FROM collector_key k ORDER BY k.revoked_at IS NOT NULL, k.created_at DESC, k.id DESC`,
  );
  return rows;
}

/** Revokes a key (kept in the list, marked revoked); revoking twice keeps the first time. Audited as `actor`. */
export async function revokeCollectorKey(db: Queryable, id: number, actor: Actor = null): Promise<CollectorKey> {
  const { rows } = await db.query<CollectorKey>(
    `WITH k AS (UPDATE collector_key SET revoked_at = coalesce(revoked_at, now()) WHERE id = $1 RETURNING *)
     SELECT ${COLUMNS} FROM k`,
    [id],
  );
  if (!rows[0]) throw notFound('collectorKeyNotFound');
  await auditKey(db, actor, 'collectorKey.revoke', rows[0]);
  return rows[0];
}

/**
 * The live key matching a presented one, or undefined. Notes when it was used
 * (at most once a minute, so a busy collector does not write on every request).
 */
export async function findCollectorKey(db: Queryable, key: string): Promise<{ id: number; name: string } | undefined> {
  if (!key.startsWith(KEY_PREFIX) || key.length > 200) return undefined;
  const { rows } = await db.query<{ id: number; name: string }>(
    `WITH k AS (
       SELECT id, name, last_used_at FROM collector_key WHERE key_hash = $1 AND revoked_at IS NULL
     ), used AS (
       UPDATE collector_key c SET last_used_at = now() FROM k
        WHERE c.id = k.id AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute')
     )
     SELECT id, name FROM k`,
    [hashKey(key)],
  );
  return rows[0];
}

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import {
  canManageUsers,
  GROUP,
  INTEGRATION_KEY_PREFIX,
  type IntegrationKey,
  isOperator,
  MAX_KEY_DAYS,
} from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { accountNameSql } from '../users/account-scope.js';

/** The key's characters after INTEGRATION_KEY_PREFIX that are kept in clear, to find it (and show it in the list). */
const LOOKUP_CHARS = 8;
/** Last use is written at most this often, so a busy billing system does not write on every request. */
const LAST_USE_EVERY = "interval '5 minutes'";

const hashKey = (key: string) => createHash('sha256').update(key).digest();

/** A key's columns; who created it as `reader` may see it (docs/security.md, "Names of accounts"). */
const columns = (reader: Caller) => `k.id AS "Id", k.name AS "Name", k.prefix AS "Prefix",
  coalesce((SELECT json_agg(json_build_object('Id', l.id, 'Name', coalesce(nullif(concat_ws(', ', l.city, l.street, l.building, l.flat), ''), l.name)) ORDER BY l.id)
              FROM location l WHERE l.id = ANY (k.location_ids)), '[]') AS "Locations",
  true AS "ReadOnly", iso(k.expires_at) AS "ExpiresAt", iso(k.created_at) AS "CreatedAt",
  (SELECT ${accountNameSql(reader, 'u')} FROM app_user u WHERE u.id = k.created_by) AS "CreatedBy",
  iso(k.last_used_at) AS "LastUsedAt", iso(k.revoked_at) AS "RevokedAt"`;

/** Group 1 reaches every key; group 2 the keys whose subtrees all lie inside its scope (SQL over `k`). */
const reachSql = (caller: Caller, param: string) =>
  caller.scope === null
    ? 'true'
    : `NOT EXISTS (SELECT FROM location l WHERE l.id = ANY (k.location_ids) AND NOT l.path && ${param}::int[])`;

function requireManager(caller: Caller): void {
  if (caller.key || !canManageUsers(caller.groupId)) throw forbidden('integrationKeysAdminsOnly');
}

/** The keys the caller manages (docs/integration.md): live first, newest first. */
export async function listIntegrationKeys(db: Queryable, caller: Caller): Promise<IntegrationKey[]> {
  requireManager(caller);
  const { rows } = await db.query<IntegrationKey>(
    `SELECT ${columns(caller)} FROM integration_key k WHERE ${reachSql(caller, '$1')}
      ORDER BY k.revoked_at IS NOT NULL, k.expires_at < now(), k.created_at DESC, k.id DESC`,
    caller.scope === null ? [] : [caller.scope],
  );
  return rows;
}

/**
 * Creates a read-only key for the subtrees until the end of `expiresOn` (provider's zone). Group 2 only inside
 * its scope (a location outside it answers 400 as one that does not exist). The key is in the answer only: the
 * database keeps its sha256. Audited.
 */
export async function createIntegrationKey(
  db: Db,
  caller: Caller,
  input: { name: string; locationIds: number[]; expiresOn: string },
): Promise<{ Key: string; Created: IntegrationKey }> {
  requireManager(caller);
  const ids = [...new Set(input.locationIds)];
  const { rows: found } = await db.query<{ id: number }>(
    `SELECT id FROM location l WHERE id = ANY ($1::int[]) AND ($2::int[] IS NULL OR l.path && $2::int[])`,
    [ids, caller.scope],
  );
  const missing = ids.find((id) => !found.some((f) => f.id === id));
  if (missing !== undefined) throw badRequest('integrationKeyLocation', { id: String(missing) }, 'locationIds');
  // A day the pattern lets through but the calendar does not (2026-02-30) is a 400, not the cast's error.
  const day = new Date(`${input.expiresOn}T00:00:00Z`);
  if (Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== input.expiresOn)
    throw badRequest('integrationKeyExpiry', { max: String(MAX_KEY_DAYS) }, 'expiresOn');
  const { rows: span } = await db.query<{ ok: boolean }>(
    `SELECT $1::date >= current_date AND $1::date <= current_date + $2::int AS ok`,
    [input.expiresOn, MAX_KEY_DAYS],
  );
  if (!span[0]?.ok) throw badRequest('integrationKeyExpiry', { max: String(MAX_KEY_DAYS) }, 'expiresOn');
  const key = INTEGRATION_KEY_PREFIX + randomBytes(32).toString('base64url');
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<IntegrationKey>(
      `WITH k AS (INSERT INTO integration_key (name, key_hash, prefix, location_ids, expires_at, created_by)
                  VALUES ($1, $2, $3, $4, ($5::date + 1)::timestamp::timestamptz, $6) RETURNING *)
       SELECT ${columns(caller)} FROM k`,
      [
        input.name.trim(),
        hashKey(key),
        key.slice(0, INTEGRATION_KEY_PREFIX.length + LOOKUP_CHARS),
        ids,
        input.expiresOn,
        caller.id,
      ],
    );
    const created = rows[0]!;
    await recordAudit(tx, {
      actor: caller,
      kind: 'integrationKey.create',
      entity: 'integrationKey',
      entityId: created.Id,
      before: null,
      after: { Name: created.Name, Prefix: created.Prefix, LocationIds: ids, ExpiresAt: created.ExpiresAt },
    });
    return { Key: key, Created: created };
  });
}

/** Revokes a key the caller reaches (else 404); revoking twice keeps the first time. Audited. */
export async function revokeIntegrationKey(db: Db, caller: Caller, id: number): Promise<IntegrationKey> {
  requireManager(caller);
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<IntegrationKey>(
      `WITH k AS (UPDATE integration_key k SET revoked_at = coalesce(revoked_at, now()),
                         revoked_by = coalesce(revoked_by, $2)
                   WHERE k.id = $1 AND ${reachSql(caller, '$3')} RETURNING *)
       SELECT ${columns(caller)} FROM k`,
      caller.scope === null ? [id, caller.id] : [id, caller.id, caller.scope],
    );
    const key = rows[0];
    if (!key) throw notFound('integrationKeyNotFound');
    await recordAudit(tx, {
      actor: caller,
      kind: 'integrationKey.revoke',
      entity: 'integrationKey',
      entityId: key.Id,
      before: null,
      after: { Name: key.Name, Prefix: key.Prefix, RevokedAt: key.RevokedAt },
    });
    return key;
  });
}

/** Whether a bearer value is an integration key rather than a sign-in token. */
export const isIntegrationKey = (bearer: string) => bearer.startsWith(INTEGRATION_KEY_PREFIX);

/**
 * The caller an integration key acts as, or undefined when the key is unknown, revoked or expired: looked up
 * in the database on every request (so a revocation holds at once on every instance), its hash compared in
 * constant time. Notes the last use (at most every 5 minutes) and audits this use under the key's name.
 */
export async function authenticateIntegrationKey(
  db: Queryable,
  key: string,
  use: { method: string; url: string },
): Promise<Caller | undefined> {
  if (!isIntegrationKey(key) || key.length > 200) return undefined;
  const { rows } = await db.query<{ id: number; name: string; key_hash: Buffer | Uint8Array; location_ids: number[] }>(
    `SELECT id, name, key_hash, location_ids FROM integration_key
      WHERE prefix = $1 AND revoked_at IS NULL AND expires_at > now()`,
    [key.slice(0, INTEGRATION_KEY_PREFIX.length + LOOKUP_CHARS)],
  );
  const presented = hashKey(key);
  const row = rows.find((r) => {
    const stored = Buffer.from(r.key_hash);
    return stored.length === presented.length && timingSafeEqual(stored, presented);
  });
  if (!row) return undefined;
  await db.query(
    `WITH used AS (
       UPDATE integration_key SET last_used_at = now()
        WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - ${LAST_USE_EVERY})
     )
     INSERT INTO audit_log (actor_id, actor_username, kind, entity, entity_id, before, after)
     VALUES (NULL, $2, 'integrationKey.use', 'integrationKey', $1::text, NULL, $3::jsonb)`,
    [row.id, row.name, JSON.stringify({ Method: use.method, Url: use.url.slice(0, 1000) })],
  );
  return {
    id: 0,
    groupId: GROUP.user,
    username: row.name,
    scope: row.location_ids,
    token: { userId: 0, jti: '', expiresAt: new Date(0), generation: 0 },
    key: { id: row.id, name: row.name },
  };
}

/** Whether a caller may manage receivers and see deliveries: a signed-in operator, never a key. */
export const isOperatorCaller = (caller: Caller) => !caller.key && isOperator(caller.groupId);

import { hash, randomBytes } from 'node:crypto';
import { type LnsConnection, type LnsConnectionWithKey, type LnsKind, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable, Tx } from '../../db/db.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';
import { adoptWaitingUplinks } from './device-eui.js';

/**
 * Network-server connections (docs/lorawan.md, "Connections"): as collector keys
 * (services/ingest/collector-keys.ts), a key is 32 random bytes shown once, only its sha256
 * kept; it is found by its hash (an index lookup: nothing is compared character by character),
 * and its last use is noted at most once a minute.
 */

/** Keys start with this, so that a leaked one is recognisable (secret scanners, logs). */
export const LNS_KEY_PREFIX = 'rml_';
// One-shot hashing (no Hash object per request: an LNS sends one per uplink).
const hashKey = (key: string) => hash('sha256', key, 'buffer');
const newKey = () => LNS_KEY_PREFIX + randomBytes(32).toString('base64url');
const prefixOf = (key: string) => key.slice(0, LNS_KEY_PREFIX.length + 6);

const ENDPOINT_PATHS: Record<LnsKind, string> = { chirpstack: '/api/lorawan/chirpstack', tts: '/api/lorawan/tts' };

const COLUMNS = `c.id AS "Id", c.kind AS "Kind", c.name AS "Name", c.prefix AS "Prefix",
  coalesce((SELECT json_agg(json_build_object('Id', l.id, 'Label', address_label(l), 'Level', l.level)
                            ORDER BY address_label(l), l.id)
              FROM lns_connection_location cl JOIN location l ON l.id = cl.location_id
             WHERE cl.connection_id = c.id), '[]') AS "Locations",
  iso(c.created_at) AS "CreatedAt", (SELECT u.username FROM app_user u WHERE u.id = c.created_by) AS "CreatedBy",
  iso(c.last_used_at) AS "LastUsedAt", iso(c.key_since) AS "KeySince"`;

type Row = Omit<LnsConnection, 'EndpointPath'>;
const withPath = (r: Row): LnsConnection => ({ ...r, EndpointPath: ENDPOINT_PATHS[r.Kind] });

/** The audit entry of a connection's change (its key never goes there, only its prefix). */
const audit = (
  db: Queryable,
  actor: Actor,
  kind: 'lnsConnection.create' | 'lnsConnection.update' | 'lnsConnection.delete' | 'lnsConnection.rotate',
  before: LnsConnection | null,
  after: LnsConnection | null,
) => {
  const shape = (c: LnsConnection | null) =>
    c && { Kind: c.Kind, Name: c.Name, Prefix: c.Prefix, Locations: c.Locations.map((l) => l.Label) };
  return recordAudit(db, {
    actor,
    kind,
    entity: 'lnsConnection',
    entityId: (after ?? before)!.Id,
    before: shape(before),
    after: shape(after),
  });
};

/** Checks location ids: each a building or a street (400 naming `locationIds` otherwise). */
async function checkLocations(db: Queryable, ids: readonly number[]): Promise<void> {
  const { rows } = await db.query<{ id: number; level: number }>(
    'SELECT id, level FROM location WHERE id = ANY ($1::int[])',
    [ids],
  );
  const levels = new Map(rows.map((r) => [r.id, r.level]));
  for (const id of ids) {
    const level = levels.get(id);
    if (level === undefined) throw badRequest('collectorLocationNotFound', { id: String(id) }, 'locationIds');
    if (level !== LOCATION_LEVEL.street && level !== LOCATION_LEVEL.building)
      throw badRequest('collectorLocationLevel', { id: String(id) }, 'locationIds');
  }
}

async function setLocations(db: Queryable, id: number, ids: readonly number[]): Promise<void> {
  await checkLocations(db, ids);
  await db.query('DELETE FROM lns_connection_location WHERE connection_id = $1', [id]);
  await db.query(
    'INSERT INTO lns_connection_location (connection_id, location_id) SELECT $1, unnest($2::int[]) ORDER BY 2',
    [id, [...ids]],
  );
}

export async function listConnections(db: Queryable): Promise<LnsConnection[]> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM lns_connection c WHERE c.deleted_at IS NULL ORDER BY lower(c.name), c.id`,
  );
  return rows.map(withPath);
}

/** A live connection, locked for the caller's change when `lock`; 404 otherwise. */
export async function getConnection(db: Queryable, id: number, lock = false): Promise<LnsConnection> {
  const { rows } = await db.query<Row>(
    `SELECT ${COLUMNS} FROM lns_connection c WHERE c.id = $1 AND c.deleted_at IS NULL ${lock ? 'FOR UPDATE' : ''}`,
    [id],
  );
  if (!rows[0]) throw notFound('lnsConnectionNotFound');
  return withPath(rows[0]);
}

/** Creates a connection; the key is in the answer only. Pass a transaction. */
export async function createConnection(
  tx: Queryable,
  input: { kind: LnsKind; name: string; locationIds?: number[] },
  actor: Actor,
): Promise<LnsConnectionWithKey> {
  const key = newKey();
  const name = input.name.trim();
  const { rows } = await tx.query<{ id: number }>(
    `INSERT INTO lns_connection (kind, name, key_hash, prefix, created_by) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (lower(trim(name))) WHERE deleted_at IS NULL DO NOTHING RETURNING id`,
    [input.kind, name, hashKey(key), prefixOf(key), actor?.id ?? null],
  );
  if (!rows[0]) throw conflict('lnsConnectionNameTaken', { name });
  await setLocations(tx, rows[0].id, input.locationIds ?? []);
  const created = await getConnection(tx, rows[0].id);
  await audit(tx, actor, 'lnsConnection.create', null, created);
  return { ...created, Key: key };
}

/** Renames a connection or replaces its buildings. Pass a transaction (in writeIntoMonths: waiting uplinks may become readings). */
export async function updateConnection(
  tx: Tx,
  id: number,
  input: { name?: string; locationIds?: number[] },
  actor: Actor,
): Promise<LnsConnection> {
  const before = await getConnection(tx, id, true);
  if (input.name !== undefined) {
    const name = input.name.trim();
    const { rows: taken } = await tx.query(
      'SELECT 1 FROM lns_connection WHERE lower(trim(name)) = lower($1) AND deleted_at IS NULL AND id <> $2',
      [name, id],
    );
    if (taken.length) throw conflict('lnsConnectionNameTaken', { name });
    await tx.query('UPDATE lns_connection SET name = $2 WHERE id = $1', [id, name]);
  }
  if (input.locationIds !== undefined) {
    await setLocations(tx, id, input.locationIds);
    // Devices of its new buildings whose uplinks it delivered before, waiting in the inbox, take them in.
    const { rows: waiting } = await tx.query<{ id: number }>(
      `SELECT DISTINCT d.id FROM lorawan_uplink u JOIN device d ON d.dev_eui = u.dev_eui
        WHERE u.connection_id = $1 AND u.device_id IS NULL ORDER BY d.id`,
      [id],
    );
    await adoptWaitingUplinks(
      tx,
      waiting.map((r) => r.id),
    );
  }
  const after = await getConnection(tx, id);
  await audit(tx, actor, 'lnsConnection.update', before, after);
  return after;
}

/** Deletes a connection: its key stops at once; what it delivered stays. Pass a transaction. */
export async function deleteConnection(tx: Queryable, id: number, actor: Actor): Promise<LnsConnection> {
  const before = await getConnection(tx, id, true);
  await tx.query('UPDATE lns_connection SET deleted_at = now() WHERE id = $1', [id]);
  forgetConnectionKeys(id);
  await audit(tx, actor, 'lnsConnection.delete', before, null);
  return before;
}

/** A new key for a connection (the old one stops at once), in the answer only. Pass a transaction. */
export async function rotateConnectionKey(tx: Queryable, id: number, actor: Actor): Promise<LnsConnectionWithKey> {
  const before = await getConnection(tx, id, true);
  const key = newKey();
  await tx.query('UPDATE lns_connection SET key_hash = $2, prefix = $3, key_since = now() WHERE id = $1', [
    id,
    hashKey(key),
    prefixOf(key),
  ]);
  forgetConnectionKeys(id);
  const after = await getConnection(tx, id);
  await audit(tx, actor, 'lnsConnection.rotate', before, after);
  return { ...after, Key: key };
}

/** The caller of an LNS endpoint: the connection its key belongs to. */
export interface LnsCaller {
  id: number;
  kind: LnsKind;
  name: string;
}

/**
 * How long this process takes a key's connection from memory (docs/lorawan.md, "Connections"):
 * an LNS sends one request per uplink, and looking its key up each time cost a statement per
 * uplink. A rotation or deletion made by this process forgets the connection's keys at once
 * (forgetConnectionKeys); made by another instance, the old key still works here until its entry
 * is this old. Unknown keys are not remembered (a key made elsewhere works at once).
 */
export const KEY_CACHE_MS = 5_000;
/** At most this many keys are remembered (a few per LNS; past it the memory starts again). */
const KEY_CACHE_MAX = 1_000;

const remembered = new Map<string, { caller: LnsCaller; until: number }>();
/** Raised by every forgetting: a lookup that started before one does not remember what it read. */
let generation = 0;

/** Forgets the remembered keys of a connection; call after the commit of its rotation or deletion. */
export function forgetConnectionKeys(id: number): void {
  generation++;
  for (const [keyHex, entry] of remembered) if (entry.caller.id === id) remembered.delete(keyHex);
}

/**
 * The live connection of a presented key, or undefined. Notes when it was used (at most once a
 * minute, so a busy LNS does not write on every request), when it is read from the database.
 */
export async function findConnectionByKey(db: Queryable, key: string): Promise<LnsCaller | undefined> {
  if (!key.startsWith(LNS_KEY_PREFIX) || key.length > 200) return undefined;
  const keyHash = hashKey(key);
  const hex = keyHash.toString('hex');
  const now = Date.now();
  const hit = remembered.get(hex);
  if (hit && hit.until > now) return hit.caller;
  const started = generation;
  const { rows } = await db.query<LnsCaller>(
    `WITH k AS (
       SELECT id, kind, name, last_used_at FROM lns_connection WHERE key_hash = $1 AND deleted_at IS NULL
     ), used AS (
       UPDATE lns_connection c SET last_used_at = now() FROM k
        WHERE c.id = k.id AND (k.last_used_at IS NULL OR k.last_used_at < now() - interval '1 minute')
     )
     SELECT id, kind, name FROM k`,
    [keyHash],
  );
  const caller = rows[0];
  if (!caller) {
    remembered.delete(hex);
    return undefined;
  }
  if (started === generation) {
    if (remembered.size >= KEY_CACHE_MAX) remembered.clear();
    remembered.set(hex, { caller, until: now + KEY_CACHE_MS });
  }
  return caller;
}

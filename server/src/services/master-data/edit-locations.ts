import {
  addressColumnOf,
  type ClientRow,
  LOCATION_LEVEL,
  LOCATION_SEARCH_LIMIT,
  type LocationDetail,
  type LocationNode,
} from '@rodmenys/contract';
import type { Db, Queryable, Tx } from '../../db/db.js';
import { badRequest, conflict, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { DEVICE_JOINS } from '../devices/device-row.js';
import { buildingIdOf, prefixPattern } from '../sql.js';
import { MASTER_DEVICE_COLUMNS } from './edit-devices.js';

const NODE_SELECT = `SELECT l.id AS "Id", l.parent_id AS "ParentId", l.level AS "Level", l.name AS "Name",
    address_label(l) AS "Path", l.flat_order AS "FlatOrder", l.area_m2::float8 AS "AreaM2",
    (SELECT count(*)::int FROM location k WHERE k.parent_id = l.id) AS "ChildCount",
    (SELECT count(*)::int FROM device d WHERE d.location_id = l.id) AS "DeviceCount",
    o.code AS "ObjectCode", o.name AS "ObjectName", c.code AS "ClientCode", c.name AS "ClientName"
  FROM location l LEFT JOIN object o ON o.location_id = ${buildingIdOf('l')} LEFT JOIN client c ON c.id = l.client_id`;

async function findNode(db: Queryable, id: number): Promise<LocationNode> {
  const { rows } = await db.query<LocationNode>(`${NODE_SELECT} WHERE l.id = $1`, [id]);
  if (!rows[0]) throw notFound('locationNotFound');
  return rows[0];
}

/** A location's children (the countries when parentId is absent), in address order. */
export async function listLocationChildren(db: Queryable, parentId: number | undefined): Promise<LocationNode[]> {
  const { rows } = await db.query<LocationNode>(
    `${NODE_SELECT} WHERE coalesce(l.parent_id, 0) = $1
      ORDER BY l.flat_order NULLS LAST, building_number(l.name) NULLS FIRST, lower(l.name)`,
    [parentId ?? 0],
  );
  return rows;
}

/**
 * Buildings and flats whose address line or building object code holds a word starting with each
 * word of `text` (case-insensitive, in any order; punctuation separates words, so "architektų 3-12"
 * finds flat 12 of Architektų g. 3 and not of 13), buildings first. Both sides are split by the same
 * expression in SQL, so they agree whatever the database's locale calls a letter.
 */
export async function searchLocations(db: Queryable, text: string): Promise<LocationNode[]> {
  const { rows } = await db.query<LocationNode>(
    `${NODE_SELECT}
      CROSS JOIN (SELECT (array_remove(regexp_split_to_array(lower($2), '[^[:alnum:]]+'), ''))[1:10] AS words) q
      WHERE l.level >= $1
        AND (SELECT bool_and(' ' || regexp_replace(lower(concat_ws(' ', address_label(l), o.code)), '[^[:alnum:]]+', ' ', 'g')
                             LIKE '% ' || w || '%')
               FROM unnest(q.words) w)
      ORDER BY l.level, lower(l.city), lower(l.street), building_number(l.building) NULLS FIRST, lower(l.building),
               l.flat_order NULLS LAST, building_number(l.flat) NULLS FIRST, lower(l.name)
      LIMIT $3`,
    [LOCATION_LEVEL.building, text, LOCATION_SEARCH_LIMIT],
  );
  return rows;
}

/** One location, its ancestors and its devices (removed ones too). */
export async function getLocation(db: Queryable, id: number): Promise<LocationDetail> {
  const location = await findNode(db, id);
  const { rows: ancestors } = await db.query<{ Id: number; Level: number; Name: string }>(
    `SELECT a.id AS "Id", a.level AS "Level", a.name AS "Name"
       FROM location l JOIN location a ON a.id = ANY(l.path) AND a.id <> l.id
      WHERE l.id = $1 ORDER BY a.level`,
    [id],
  );
  const { rows: devices } = await db.query<LocationDetail['Devices'][number]>(
    `SELECT ${MASTER_DEVICE_COLUMNS} FROM device d ${DEVICE_JOINS} WHERE d.location_id = $1
      ORDER BY d.removed_at IS NOT NULL, d.device_type_id, d.description, d.device_code`,
    [id],
  );
  return { Location: location, Ancestors: ancestors, Devices: devices };
}

/** Renames a location (the address columns of its subtree follow) and/or sets a flat's order. */
export async function updateLocation(
  db: Db,
  caller: Caller,
  id: number,
  input: { name?: string; flatOrder?: number | null; areaM2?: number | null },
): Promise<LocationNode> {
  return db.transaction(async (tx) => {
    const before = await findNode(tx, id);
    const name = input.name?.trim();
    if (name !== undefined) {
      if (!name) throw badRequest('locationNameBlank', {}, 'name');
      const { rowCount } = await tx.query(
        'SELECT 1 FROM location WHERE coalesce(parent_id, 0) = $1 AND lower(name) = lower($2) AND id <> $3',
        [before.ParentId ?? 0, name, id],
      );
      if (rowCount > 0) throw conflict('locationNameTaken', { name });
      // The address column that holds the level's own name.
      const column = addressColumnOf(before.Level);
      await tx.query(
        `UPDATE location SET ${column} = $2, name = CASE WHEN id = $1 THEN $2 ELSE name END WHERE path && ARRAY[$1::int]`,
        [id, name],
      );
    }
    if (input.flatOrder !== undefined) {
      if (before.Level !== LOCATION_LEVEL.flat) throw badRequest('flatOrderOnlyFlat', {}, 'flatOrder');
      await tx.query('UPDATE location SET flat_order = $2 WHERE id = $1', [id, input.flatOrder]);
    }
    if (input.areaM2 !== undefined) {
      if (before.Level !== LOCATION_LEVEL.flat) throw badRequest('areaOnlyFlat', {}, 'areaM2');
      await tx.query('UPDATE location SET area_m2 = $2 WHERE id = $1', [id, input.areaM2]);
    }
    return auditedUpdate(tx, caller, before);
  });
}

const locationAudit = (n: LocationNode) => ({
  Level: n.Level,
  Name: n.Name,
  Path: n.Path,
  FlatOrder: n.FlatOrder,
  AreaM2: n.AreaM2,
  ClientCode: n.ClientCode,
});

/**
 * Sets a flat's client by code (null = none). An unknown code creates the
 * client when a name is given; otherwise it is a 400.
 */
export async function setFlatClient(
  db: Db,
  caller: Caller,
  id: number,
  input: { clientCode: string | null; clientName?: string },
): Promise<LocationNode> {
  return db.transaction(async (tx) => {
    const before = await findNode(tx, id);
    if (before.Level !== LOCATION_LEVEL.flat) throw badRequest('clientOnlyFlat', {}, 'clientCode');
    let clientId: number | null = null;
    const code = input.clientCode?.trim() ?? null;
    if (code) {
      const { rows } = await tx.query<{ id: number }>('SELECT id FROM client WHERE code = $1', [code]);
      clientId = rows[0]?.id ?? null;
      if (clientId === null) {
        const name = input.clientName?.trim();
        if (!name) throw badRequest('clientUnknown', { code }, 'clientCode');
        const created = await tx.query<{ id: number }>('INSERT INTO client (code, name) VALUES ($1, $2) RETURNING id', [
          code,
          name,
        ]);
        clientId = created.rows[0]!.id;
        await recordAudit(tx, {
          actor: caller,
          kind: 'client.create',
          entity: 'client',
          entityId: clientId,
          before: null,
          after: { Code: code, Name: name },
        });
      }
    }
    await tx.query('UPDATE location SET client_id = $2 WHERE id = $1', [id, clientId]);
    return auditedUpdate(tx, caller, before);
  });
}

/** Up to 20 clients whose code or name starts with `search`. */
export async function searchClients(db: Queryable, search: string | undefined): Promise<ClientRow[]> {
  const { rows } = await db.query<ClientRow>(
    `SELECT c.id AS "Id", c.code AS "ClientCode", c.name AS "ClientName",
            (SELECT count(*)::int FROM location l WHERE l.client_id = c.id) AS "FlatCount"
       FROM client c
      WHERE $1::text IS NULL OR lower(c.code) LIKE $1 OR lower(c.name) LIKE $1
      ORDER BY c.code LIMIT 20`,
    [search?.trim() ? prefixPattern(search) : null],
  );
  return rows;
}

/** Reads a changed location back, records the change (before and after) in the audit log, and returns it. */
async function auditedUpdate(tx: Tx, caller: Caller, before: LocationNode): Promise<LocationNode> {
  const after = await findNode(tx, before.Id);
  await recordAudit(tx, {
    actor: caller,
    kind: 'location.update',
    entity: 'location',
    entityId: before.Id,
    before: locationAudit(before),
    after: locationAudit(after),
  });
  return after;
}

import type { Tx } from '../../../db/db.js';
import type { Actor } from '../../audit/record-audit.js';
import { locationInsert, placeLocations } from '../../locations/insert-locations.js';
import { detailsAudit, deviceAudit, insertAudited, locationAudit, updateAudited } from './audit.js';
import { type Details, type DeviceValues, keyOf, type Plan } from './types.js';

/**
 * Writes a plan: each kind of record in one bulk statement (clients first, as flats link
 * to them; then locations, objects and devices), each with its audit entries.
 */
export async function writePlan(tx: Tx, plan: Plan, actor: Actor): Promise<void> {
  const clientIdOf = await writeClients(tx, plan, actor);
  await writeLocations(tx, plan, actor, clientIdOf);
  await writeFlatUpdates(tx, plan, actor, clientIdOf);
  await writeObjects(tx, plan, actor);
  await writeDevices(tx, plan, actor);
}

type ClientIdOf = (code: string | null) => Promise<number | null>;

const detailsArrays = (list: Details[]) => [
  list.map((d) => d.code),
  list.map((d) => d.name ?? d.code),
  list.map((d) => d.typeCode),
  list.map((d) => d.typeName),
  list.map((d) => d.categoryCode),
  list.map((d) => d.categoryName),
];

/** Clients and objects share their detail columns and are matched by code. */
async function updateDetails(tx: Tx, actor: Actor, table: 'client' | 'object', updates: Details[]) {
  if (!updates.length) return;
  await updateAudited(
    tx,
    actor,
    {
      table,
      input:
        'unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u(code, name, tc, tn, cc, cn)',
      match: 'x.code = u.code',
      set: 'name = u.name, type_code = u.tc, type_name = u.tn, category_code = u.cc, category_name = u.cn',
      params: detailsArrays(updates),
    },
    { kind: `${table}.update`, entity: table, shape: detailsAudit },
  );
}

/** Creates and changes the clients; returns the id of a client by code for the flats to link. */
async function writeClients(tx: Tx, plan: Plan, actor: Actor): Promise<ClientIdOf> {
  const clientIds = new Map<string, number>();
  if (plan.newClients.length) {
    const rows = await insertAudited<{ id: number; code: string }>(
      tx,
      actor,
      `INSERT INTO client (code, name, type_code, type_name, category_code, category_name)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
      detailsArrays(plan.newClients),
      { kind: 'client.create', entity: 'client', shape: detailsAudit, returning: 'id, code' },
    );
    for (const r of rows) clientIds.set(r.code, r.id);
  }
  await updateDetails(tx, actor, 'client', plan.clientUpdates);
  return async (code) => {
    if (code === null) return null;
    const known = clientIds.get(code);
    if (known !== undefined) return known;
    const { rows } = await tx.query<{ id: number }>('SELECT id FROM client WHERE code = $1', [code]);
    clientIds.set(code, rows[0]!.id);
    return rows[0]!.id;
  };
}

/** New locations (services/locations/insert-locations.ts: ids taken up front, so the paths are built here). */
async function writeLocations(tx: Tx, plan: Plan, actor: Actor, clientIdOf: ClientIdOf) {
  const locs = plan.newLocations;
  if (!locs.length) return;
  for (const loc of locs) loc.clientId = await clientIdOf(loc.clientCode);
  const placed = await placeLocations(tx, locs, (names) => plan.locationsByKey.get(keyOf(names)));
  for (const [i, p] of placed.entries()) Object.assign(locs[i]!, { id: p.id, parentId: p.parentId, path: p.path });
  const { sql, params } = locationInsert(placed);
  await insertAudited(tx, actor, sql, params, {
    kind: 'location.create',
    entity: 'location',
    shape: locationAudit,
    returning: 'id',
  });
  for (const loc of locs) plan.locationsByKey.set(keyOf(loc.names), loc);
}

/** Stored flats whose order, area or client the file changes. */
async function writeFlatUpdates(tx: Tx, plan: Plan, actor: Actor, clientIdOf: ClientIdOf) {
  if (!plan.flatUpdates.length) return;
  const clientIds: (number | null)[] = [];
  for (const u of plan.flatUpdates) clientIds.push(await clientIdOf(u.clientCode));
  await updateAudited(
    tx,
    actor,
    {
      table: 'location',
      input: 'unnest($1::int[], $2::int[], $3::int[], $4::numeric[]) AS u(id, flat_order, client_id, area_m2)',
      match: 'x.id = u.id',
      set: 'flat_order = u.flat_order, client_id = u.client_id, area_m2 = u.area_m2',
      params: [
        plan.flatUpdates.map((u) => u.loc.id),
        plan.flatUpdates.map((u) => u.flatOrder),
        clientIds,
        plan.flatUpdates.map((u) => u.areaM2),
      ],
    },
    { kind: 'location.update', entity: 'location', shape: locationAudit },
  );
}

async function writeObjects(tx: Tx, plan: Plan, actor: Actor) {
  if (plan.newObjects.length) {
    await insertAudited(
      tx,
      actor,
      `INSERT INTO object (code, name, type_code, type_name, category_code, category_name, location_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[])`,
      [...detailsArrays(plan.newObjects), plan.newObjects.map((o) => plan.locationsByKey.get(o.locationKey)!.id)],
      { kind: 'object.create', entity: 'object', shape: detailsAudit, returning: 'id' },
    );
  }
  await updateDetails(tx, actor, 'object', plan.objectUpdates);
}

const deviceArrays = (list: DeviceValues[]) => [
  list.map((d) => d.device_type_id),
  list.map((d) => d.location_id),
  list.map((d) => d.device_code),
  list.map((d) => d.counter_code),
  list.map((d) => d.description),
  list.map((d) => d.rating_factor),
  list.map((d) => d.installed_at),
  list.map((d) => d.model),
  list.map((d) => d.verified_on),
  list.map((d) => d.read_method),
  list.map((d) => d.role),
  list.map((d) => d.dev_eui),
];

/** The device columns as `u`; `inst` is a wall-clock time in the provider zone (the session's). */
const DEVICE_INPUT = `unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::numeric[], $7::text[], $8::text[],
                              $9::date[], $10::text[], $11::text[], $12::text[])
  AS u(t, l, code, counter, descr, rf, inst, model, verified, method, role, eui)`;

async function writeDevices(tx: Tx, plan: Plan, actor: Actor) {
  if (plan.newDevices.length) {
    const values = plan.newDevices.map((d) => ({ ...d, location_id: plan.locationsByKey.get(d.locationKey)!.id }));
    await insertAudited(
      tx,
      actor,
      `INSERT INTO device (device_type_id, location_id, device_code, counter_code, description, rating_factor, installed_at, model,
                           verified_on, read_method, role, dev_eui)
       SELECT u.t, u.l, u.code, u.counter, u.descr, u.rf, u.inst::timestamp::timestamptz, u.model, u.verified, u.method,
              u.role, u.eui
         FROM ${DEVICE_INPUT}`,
      deviceArrays(values),
      { kind: 'device.create', entity: 'device', shape: deviceAudit, returning: 'id' },
    );
  }
  if (plan.deviceUpdates.length) {
    await updateAudited(
      tx,
      actor,
      {
        table: 'device',
        input: DEVICE_INPUT,
        match: 'x.device_code = u.code',
        set:
          'counter_code = u.counter, description = u.descr, rating_factor = u.rf, installed_at = u.inst::timestamp::timestamptz, model = u.model, ' +
          'verified_on = u.verified, read_method = u.method, role = u.role, dev_eui = u.eui',
        params: deviceArrays(plan.deviceUpdates),
      },
      { kind: 'device.update', entity: 'device', shape: deviceAudit },
    );
  }
}

import { LOCATION_LEVEL, type RegisterColumn } from '@rodmenys/contract';
import { type FileFlat, sameDetails } from './conflicts.js';
import {
  type Counts,
  type Details,
  type DeviceValues,
  emptyCounts,
  keyOf,
  type NewLoc,
  type Plan,
  type Row,
  type Stored,
  type StoredDetails,
} from './types.js';

/**
 * What to create and change, from the rows without conflicts and the stored records:
 * no database work, so a preview and an apply plan the same. Columns present in the
 * file are authoritative, except that empty names, installation times, areas and models keep what is stored.
 */
export function planImport(
  good: Row[],
  stored: Stored,
  flats: Map<string, FileFlat>,
  columns: Set<RegisterColumn>,
): Plan {
  const plan: Plan = {
    counts: emptyCounts(),
    newLocations: [],
    flatUpdates: [],
    newClients: [],
    clientUpdates: [],
    newObjects: [],
    objectUpdates: [],
    newDevices: [],
    deviceUpdates: [],
    locationsByKey: stored.locations,
  };
  planLocations(plan, good, stored, flats, columns);
  planDetails(plan, good, stored);
  planDevices(plan, good, stored, columns);
  return plan;
}

/** Every level of every row's address that is not stored yet; a stored flat's order and client. */
function planLocations(
  plan: Plan,
  good: Row[],
  stored: Stored,
  flats: Map<string, FileFlat>,
  columns: Set<RegisterColumn>,
) {
  const counts = plan.counts.Locations;
  const planned = new Map<string, NewLoc>();
  const touched = new Set<string>();
  const storedClientCode = (id: number | null) => (id === null ? null : (stored.clientCodes.get(id) ?? null));
  for (const row of good) {
    for (let level: number = LOCATION_LEVEL.country; level <= row.address.length; level++) {
      const key = keyOf(row.address.slice(0, level));
      if (touched.has(key)) continue;
      touched.add(key);
      if (stored.locations.has(key)) {
        // A stored flat is counted below, as changed or unchanged.
        if (level < LOCATION_LEVEL.flat) counts.Unchanged++;
        continue;
      }
      const parentKey = keyOf(row.address.slice(0, level - 1));
      const parent =
        level === LOCATION_LEVEL.country ? null : (stored.locations.get(parentKey) ?? planned.get(parentKey)!);
      const flat = level === LOCATION_LEVEL.flat ? flats.get(key)! : null;
      const loc: NewLoc = {
        id: 0,
        level,
        parentId: parent?.id ?? null,
        path: parent ? [...parent.path] : [],
        names: row.address.slice(0, level),
        flatOrder: flat?.flatOrder ?? null,
        areaM2: flat?.flatArea ?? null,
        clientId: null,
        clientCode: flat?.clientCode ?? null,
      };
      planned.set(key, loc);
      plan.newLocations.push(loc);
      counts.Created++;
    }
    if (row.address.length === LOCATION_LEVEL.flat) {
      const key = keyOf(row.address);
      const existing = stored.locations.get(key);
      const flat = flats.get(key)!;
      if (existing && flat.line === row.line) {
        const flatOrder = columns.has('FlatOrder') ? flat.flatOrder : existing.flatOrder;
        // An empty area cell keeps the stored area (the column is there for other flats).
        const areaM2 = flat.flatArea ?? existing.areaM2;
        const clientCode = columns.has('ClientCode') ? flat.clientCode : storedClientCode(existing.clientId);
        if (
          flatOrder !== existing.flatOrder ||
          areaM2 !== existing.areaM2 ||
          clientCode !== storedClientCode(existing.clientId)
        ) {
          plan.flatUpdates.push({ loc: existing, flatOrder, areaM2, clientCode });
          counts.Changed++;
        } else counts.Unchanged++;
      }
    }
  }
}

/** Objects and clients by code; an empty name keeps the stored one (or is the code for a new one). */
function planDetails(plan: Plan, good: Row[], stored: Stored) {
  const decide = (
    kind: keyof Pick<Counts, 'Objects' | 'Clients'>,
    map: Map<string, StoredDetails>,
    d: Details,
    done: Set<string>,
  ): { after: Details; isNew: boolean } | undefined => {
    if (done.has(d.code)) return undefined;
    done.add(d.code);
    const s = map.get(d.code);
    const after = { ...d, name: d.name ?? s?.name ?? d.code };
    if (!s) plan.counts[kind].Created++;
    else if (!sameDetails(s, after)) {
      (kind === 'Objects' ? plan.objectUpdates : plan.clientUpdates).push(after);
      plan.counts[kind].Changed++;
    } else plan.counts[kind].Unchanged++;
    return { after, isNew: !s };
  };
  const doneObjects = new Set<string>();
  const doneClients = new Set<string>();
  for (const row of good) {
    const object = decide('Objects', stored.objects, row.object, doneObjects);
    if (object?.isNew)
      plan.newObjects.push({ ...object.after, locationKey: keyOf(row.address.slice(0, LOCATION_LEVEL.building)) });
    if (row.client) {
      const client = decide('Clients', stored.clients, row.client, doneClients);
      if (client?.isNew) plan.newClients.push(client.after);
    }
  }
}

/** Devices by serial: new ones at their row's address; a stored one's values from the columns given. */
function planDevices(plan: Plan, good: Row[], stored: Stored, columns: Set<RegisterColumn>) {
  const counts = plan.counts.Devices;
  for (const row of good) {
    const values = {
      device_type_id: row.typeId,
      device_code: row.deviceCode,
      counter_code: row.counterCode,
      description: row.description,
      rating_factor: row.ratingFactor,
      model: row.model,
      dev_eui: row.devEui,
      installed_at: row.installedAt,
      verified_on: row.verifiedOn,
      read_method: row.readMethod,
      role: row.role as string | null,
    };
    const dev = stored.devices.get(row.deviceCode);
    if (!dev) {
      plan.newDevices.push({ ...values, locationKey: keyOf(row.address) });
      counts.Created++;
      continue;
    }
    const after: DeviceValues = {
      ...values,
      location_id: dev.location_id,
      counter_code: columns.has('CounterCode') ? values.counter_code : dev.counter_code,
      description: columns.has('DeviceDescription') ? values.description : dev.description,
      rating_factor: columns.has('RatingFactor') ? values.rating_factor : dev.rating_factor,
      // An empty model cell keeps the stored model (docs/master-data.md): a model is cleared on the form only.
      model: values.model ?? dev.model,
      // An empty DevEui cell keeps the stored one, as a model's.
      dev_eui: values.dev_eui ?? dev.dev_eui,
      installed_at: values.installed_at ?? dev.installed_at,
      verified_on: values.verified_on ?? dev.verified_on,
      read_method: values.read_method ?? dev.read_method,
      role: values.role ?? dev.role,
    };
    const changed =
      after.counter_code !== dev.counter_code ||
      after.description !== dev.description ||
      !sameNumber(after.rating_factor, dev.rating_factor) ||
      after.model !== dev.model ||
      after.dev_eui !== dev.dev_eui ||
      after.installed_at !== dev.installed_at ||
      after.verified_on !== dev.verified_on ||
      after.read_method !== dev.read_method ||
      after.role !== dev.role;
    if (changed) {
      plan.deviceUpdates.push(after);
      counts.Changed++;
    } else counts.Unchanged++;
  }
}

/** Rating factors are stored with 6 decimals. */
const sameNumber = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.round(a * 1e6) === Math.round(b * 1e6);

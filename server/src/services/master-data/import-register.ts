import {
  type ImportCounts,
  type ImportErrorCode,
  type ImportReport,
  type ImportRowError,
  MAX_IMPORT_ERRORS,
  REGISTER_COLUMNS,
  type RegisterColumn,
} from '@rodmenys/contract';
import type { Db, Tx } from '../../db/db.js';
import { type Actor, type AuditRecord, recordAudit } from '../audit/record-audit.js';
import { type Cell, RegisterFileError, type RegisterRow, readRegisterFile } from './register-file.js';

const MAX_TEXT = 200;

interface Details {
  code: string;
  name: string | null;
  typeCode: string | null;
  typeName: string | null;
  categoryCode: string | null;
  categoryName: string | null;
}

/** A register row after cell validation. */
interface Row {
  line: number;
  /** Names from the country down to the building, and the flat for flat devices. */
  address: string[];
  flatOrder: number | null;
  object: Details;
  client: Details | null;
  typeId: number;
  deviceCode: string;
  counterCode: string | null;
  description: string | null;
  ratingFactor: number | null;
  /** Local time 'YYYY-MM-DD HH:MM:SS' (the provider zone), or null = not given. */
  installedAt: string | null;
}

class RowErrors {
  list: ImportRowError[] = [];
  add(line: number, code: ImportErrorCode, params: Record<string, string | number>, message: string) {
    this.list.push({ Line: line, Code: code, Params: params, Message: message });
  }
}

class DryRun extends Error {
  constructor(readonly report: ImportReport) {
    super('dry run');
  }
}

/**
 * Register import (docs/master-data.md): reads the file, checks every row against itself and
 * the database, then writes locations, clients, objects and devices in bulk, with
 * an audit entry per created or changed record. Preview and apply share this one
 * path: a preview is the same transaction rolled back. With any bad row nothing
 * is written. Natural keys: the address path (case-insensitive), ObjectCode,
 * ClientCode, DeviceCode. Columns present in the file are authoritative, except
 * that empty names and installation dates keep what is stored.
 */
export async function importRegister(
  db: Db,
  actor: Actor,
  data: Buffer,
  options: { apply: boolean; fileName?: string },
): Promise<ImportReport> {
  const errors = new RowErrors();
  let rows: RegisterRow[] = [];
  let columns = new Set<RegisterColumn>();
  try {
    ({ rows, columns } = await readRegisterFile(data));
  } catch (err) {
    if (!(err instanceof RegisterFileError)) throw err;
    errors.add(0, 'BAD_FILE', {}, err.message);
  }
  if (!errors.list.length) {
    if (!rows.length) errors.add(0, 'EMPTY_FILE', {}, 'The file has no data rows');
    for (const c of REGISTER_COLUMNS) {
      if (c.required && !columns.has(c.key)) {
        errors.add(0, 'MISSING_COLUMN', { column: c.key }, `The file has no column "${c.en}"`);
      }
    }
  }
  if (errors.list.length) return report(false, 0, emptyCounts(), errors);

  try {
    return await db.transaction(async (tx) => {
      // One import at a time: the plan below is computed from what is stored.
      await tx.query('SELECT pg_advisory_xact_lock(7243902)');
      const typeIds = await loadDeviceTypes(tx);
      const valid = rows.map((r) => parseRow(r, typeIds, errors)).filter((r): r is Row => r !== null);
      const plan = await planImport(tx, valid, columns, errors);
      if (errors.list.length) throw new DryRun(report(false, rows.length, plan.counts, errors));
      await writePlan(tx, plan, actor);
      await recordAudit(tx, {
        actor,
        kind: 'register.import',
        entity: 'register',
        entityId: options.fileName ?? null,
        before: null,
        after: { rows: rows.length, ...plan.counts },
      });
      const result = report(options.apply, rows.length, plan.counts, errors);
      if (!options.apply) throw new DryRun(result);
      return result;
    });
  } catch (err) {
    if (err instanceof DryRun) return err.report;
    throw err;
  }
}

type Counts = Record<'Locations' | 'Objects' | 'Clients' | 'Devices', ImportCounts>;
const emptyCounts = (): Counts => ({
  Locations: { Created: 0, Changed: 0, Unchanged: 0 },
  Objects: { Created: 0, Changed: 0, Unchanged: 0 },
  Clients: { Created: 0, Changed: 0, Unchanged: 0 },
  Devices: { Created: 0, Changed: 0, Unchanged: 0 },
});

function report(applied: boolean, rowCount: number, counts: Counts, errors: RowErrors): ImportReport {
  const sorted = errors.list.sort((a, b) => a.Line - b.Line);
  return {
    Applied: applied && sorted.length === 0,
    Rows: rowCount,
    ...counts,
    Errors: sorted.slice(0, MAX_IMPORT_ERRORS),
    ErrorCount: sorted.length,
  };
}

async function loadDeviceTypes(tx: Tx): Promise<Map<string, number>> {
  const { rows } = await tx.query<{ id: number; code: string; name_lt: string; name_en: string }>(
    'SELECT id, code, name_lt, name_en FROM device_type',
  );
  const index = new Map<string, number>();
  for (const t of rows) {
    for (const k of [String(t.id), t.code, t.name_lt, t.name_en]) index.set(k.trim().toLowerCase(), t.id);
  }
  return index;
}

// ---- Cells ----

function text(cell: Cell | undefined): string | null {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof Date) return localDateTime(cell).slice(0, 10);
  const s = String(cell).trim();
  return s === '' ? null : s;
}

/** `1 234,5` and `1234.5` → 1234.5; undefined when not a number. */
function number(cell: Cell | undefined): number | undefined {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : undefined;
  const s = text(cell)
    ?.replace(/[\s\u00a0]/g, '')
    .replace(',', '.');
  if (!s || !/^[-+]?\d+(\.\d+)?$/.test(s)) return undefined;
  return Number(s);
}

/** An Excel date (its UTC fields are the wall-clock time) as 'YYYY-MM-DD HH:MM:SS'. */
const localDateTime = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/** 2026-03-01, 2026.03.01, 01.03.2026, with an optional time; an Excel date cell or serial. */
function dateTime(cell: Cell | undefined): string | undefined {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? undefined : localDateTime(cell);
  if (typeof cell === 'number') {
    if (cell < 1 || cell > 200_000) return undefined;
    return localDateTime(new Date(Math.round((cell - 25569) * 86_400_000)));
  }
  const s = text(cell);
  if (!s) return undefined;
  const m =
    s.match(/^(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/) ??
    s
      .match(/^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/)
      ?.map((v, i, a) => (i === 1 ? a[3]! : i === 3 ? a[1]! : v));
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as number[];
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, se!));
  if (date.getUTCMonth() !== mo! - 1 || date.getUTCDate() !== d! || h! > 23 || mi! > 59 || se! > 59) return undefined;
  if (y! < 1900 || y! > 2200) return undefined;
  return localDateTime(date);
}

/** Checks one row's cells; returns null (with the errors recorded) when it is bad. */
function parseRow(r: RegisterRow, typeIds: Map<string, number>, errors: RowErrors): Row | null {
  const before = errors.list.length;
  const fail = (code: ImportErrorCode, column: RegisterColumn, message: string, extra: Record<string, string> = {}) =>
    errors.add(r.line, code, { column, ...extra }, message);
  const str = (column: RegisterColumn, required: boolean): string | null => {
    const value = text(r.cells[column]);
    if (value === null && required) fail('REQUIRED', column, `${column} is required`);
    if (value !== null && value.length > MAX_TEXT) {
      errors.add(r.line, 'TOO_LONG', { column, max: MAX_TEXT }, `${column} is longer than ${MAX_TEXT} characters`);
    }
    return value;
  };
  const address = (['Country', 'County', 'Region', 'City', 'Street', 'Building'] as const).map((c) => str(c, true));
  const flat = str('Flat', false);
  const typeText = str('DeviceType', true);
  const typeId = typeText === null ? undefined : typeIds.get(typeText.toLowerCase());
  if (typeText !== null && typeId === undefined) {
    fail('UNKNOWN_DEVICE_TYPE', 'DeviceType', `Unknown device type "${typeText}"`, { value: typeText });
  }
  if (typeId === 11 && flat !== null) {
    fail('FLAT_MISMATCH', 'Flat', 'A building heat meter belongs to a building: leave Flat empty');
  } else if (typeId !== undefined && typeId !== 11 && flat === null) {
    fail('REQUIRED', 'Flat', 'Flat is required for a flat device');
  }
  const optionalNumber = (column: RegisterColumn, check: (n: number) => boolean): number | null => {
    const cell = r.cells[column];
    if (text(cell) === null) return null;
    const n = number(cell);
    if (n === undefined || !check(n)) {
      fail('INVALID_NUMBER', column, `${column} is not a valid number: "${text(cell)}"`, { value: text(cell)! });
      return null;
    }
    return n;
  };
  const flatOrder = optionalNumber('FlatOrder', (n) => Number.isInteger(n) && Math.abs(n) < 2 ** 31);
  const ratingFactor = optionalNumber('RatingFactor', (n) => n > 0 && n < 1_000_000);
  let installedAt: string | null = null;
  if (text(r.cells.InstalledAt) !== null) {
    installedAt = dateTime(r.cells.InstalledAt) ?? null;
    if (installedAt === null) {
      const value = text(r.cells.InstalledAt)!;
      fail('INVALID_DATE', 'InstalledAt', `InstalledAt is not a date: "${value}"`, { value });
    }
  }
  const details = (prefix: 'Object' | 'Client', required: boolean): Details | null => {
    const code = str(`${prefix}Code`, required);
    const d = {
      code: code ?? '',
      name: str(`${prefix}Name`, false),
      typeCode: str(`${prefix}TypeCode`, false),
      typeName: str(`${prefix}TypeName`, false),
      categoryCode: str(`${prefix}CategoryCode`, false),
      categoryName: str(`${prefix}CategoryName`, false),
    };
    return code === null ? null : d;
  };
  const object = details('Object', true);
  const client = typeId === 11 ? null : details('Client', false);
  const deviceCode = str('DeviceCode', true);
  const counterCode = str('CounterCode', false);
  const description = str('DeviceDescription', false);
  if (errors.list.length > before) return null;
  return {
    line: r.line,
    address: flat === null ? (address as string[]) : [...(address as string[]), flat],
    flatOrder,
    object: object!,
    client,
    typeId: typeId!,
    deviceCode: deviceCode!,
    counterCode,
    description,
    ratingFactor,
    installedAt,
  };
}

// ---- The plan: what to create and change, from the rows and the stored state ----

interface Loc {
  id: number;
  level: number;
  path: number[];
  names: string[];
  flatOrder: number | null;
  clientId: number | null;
}
interface NewLoc extends Loc {
  parentId: number | null;
  /** The client code to link (flats). */
  clientCode: string | null;
}
interface StoredDetails extends Details {
  id: number;
}
interface DetailsUpdate {
  before: StoredDetails;
  after: Details;
}
interface StoredDevice {
  id: number;
  device_type_id: number;
  location_id: number;
  counter_code: string | null;
  description: string | null;
  rating_factor: number | null;
  installed_at: string | null;
  removed_at: string | null;
  address: string;
}
interface DeviceValues {
  device_type_id: number;
  location_id: number;
  device_code: string;
  counter_code: string | null;
  description: string | null;
  rating_factor: number | null;
  installed_at: string | null;
}

interface Plan {
  counts: Counts;
  newLocations: NewLoc[];
  /** Flats whose order or client changes. */
  flatUpdates: { loc: Loc; flatOrder: number | null; clientCode: string | null }[];
  newClients: Details[];
  clientUpdates: DetailsUpdate[];
  newObjects: (Details & { locationKey: string })[];
  objectUpdates: DetailsUpdate[];
  newDevices: (Omit<DeviceValues, 'location_id'> & { locationKey: string })[];
  deviceUpdates: { before: StoredDevice; after: DeviceValues }[];
  locationsByKey: Map<string, Loc>;
}

const keyOf = (names: readonly (string | null)[]) => names.map((n) => (n ?? '').toLowerCase()).join('\u0000');

function sameDetails(a: Details, b: Details): boolean {
  return (
    a.name === b.name &&
    a.typeCode === b.typeCode &&
    a.typeName === b.typeName &&
    a.categoryCode === b.categoryCode &&
    a.categoryName === b.categoryName
  );
}

async function planImport(tx: Tx, rows: Row[], columns: Set<RegisterColumn>, errors: RowErrors): Promise<Plan> {
  const counts = emptyCounts();
  const stored = await loadStored(tx, rows);
  const plan: Plan = {
    counts,
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

  // Details given for a code in the file must agree; the first row decides.
  const seenDetails = new Map<string, { d: Details; line: number }>();
  const checkDetails = (kind: 'object' | 'client', d: Details, line: number): boolean => {
    const key = `${kind}:${d.code}`;
    const first = seenDetails.get(key);
    if (!first) {
      seenDetails.set(key, { d, line });
      return true;
    }
    if (sameDetails(first.d, d)) return true;
    errors.add(
      line,
      'DETAILS_CONFLICT',
      { code: d.code, line: first.line },
      `${kind === 'object' ? 'Object' : 'Client'} ${d.code} has other details on line ${first.line}`,
    );
    return false;
  };
  const objectOfBuilding = new Map<string, { code: string; line: number }>();
  const buildingOfObject = new Map<string, { key: string; line: number }>();
  const flats = new Map<string, { line: number; flatOrder: number | null; clientCode: string | null }>();
  const serials = new Map<string, number>();
  const good: Row[] = [];

  for (const row of rows) {
    const before = errors.list.length;
    const buildingKey = keyOf(row.address.slice(0, 6));
    const where = row.address.join(', ');
    // Object: one per building, both ways, in the file and in the database.
    const o = row.object;
    checkDetails('object', o, row.line);
    const fileObject = objectOfBuilding.get(buildingKey);
    const fileBuilding = buildingOfObject.get(o.code);
    const storedObject = stored.objects.get(o.code);
    const storedBuilding = stored.locations.get(buildingKey);
    const storedBuildingObject = storedBuilding && stored.objectsByLocation.get(storedBuilding.id);
    if (fileObject && fileObject.code !== o.code) {
      errors.add(
        row.line,
        'OBJECT_CONFLICT',
        { column: 'ObjectCode', code: fileObject.code, line: fileObject.line },
        `The building has object ${fileObject.code} on line ${fileObject.line}`,
      );
    } else if (fileBuilding && fileBuilding.key !== buildingKey) {
      errors.add(
        row.line,
        'OBJECT_CONFLICT',
        { column: 'ObjectCode', code: o.code, line: fileBuilding.line },
        `Object ${o.code} is another building on line ${fileBuilding.line}`,
      );
    } else if (storedObject && storedObject.locationId !== storedBuilding?.id) {
      errors.add(
        row.line,
        'OBJECT_CONFLICT',
        { column: 'ObjectCode', code: o.code, address: storedObject.address },
        `Object ${o.code} is the building ${storedObject.address}`,
      );
    } else if (storedBuildingObject && storedBuildingObject !== o.code) {
      errors.add(
        row.line,
        'OBJECT_CONFLICT',
        { column: 'ObjectCode', code: storedBuildingObject, address: where },
        `The building already has object ${storedBuildingObject}`,
      );
    }
    objectOfBuilding.set(buildingKey, fileObject ?? { code: o.code, line: row.line });
    buildingOfObject.set(o.code, fileBuilding ?? { key: buildingKey, line: row.line });
    // Flat: one order and one client across its rows.
    if (row.client) checkDetails('client', row.client, row.line);
    if (row.address.length === 7) {
      const flatKey = keyOf(row.address);
      const first = flats.get(flatKey);
      const clientCode = row.client?.code ?? null;
      if (!first) flats.set(flatKey, { line: row.line, flatOrder: row.flatOrder, clientCode });
      else {
        if (clientCode !== null && first.clientCode !== null && clientCode !== first.clientCode) {
          errors.add(
            row.line,
            'CLIENT_CONFLICT',
            { column: 'ClientCode', code: first.clientCode, line: first.line },
            `The flat has client ${first.clientCode} on line ${first.line}`,
          );
        }
        if (row.flatOrder !== null && first.flatOrder !== null && row.flatOrder !== first.flatOrder) {
          errors.add(
            row.line,
            'DETAILS_CONFLICT',
            { code: where, line: first.line },
            `The flat has another order on line ${first.line}`,
          );
        }
        first.clientCode ??= clientCode;
        first.flatOrder ??= row.flatOrder;
      }
    }
    // Device: a serial once in the file, and only on its own device in the database.
    const firstLine = serials.get(row.deviceCode);
    const dev = stored.devices.get(row.deviceCode);
    const target = stored.locations.get(keyOf(row.address));
    if (firstLine !== undefined) {
      errors.add(
        row.line,
        'DUPLICATE_SERIAL',
        { column: 'DeviceCode', code: row.deviceCode, line: firstLine },
        `Serial ${row.deviceCode} is already on line ${firstLine}`,
      );
    } else if (dev) {
      if (dev.removed_at !== null) {
        errors.add(
          row.line,
          'DEVICE_REMOVED',
          { column: 'DeviceCode', code: row.deviceCode, removedAt: dev.removed_at },
          `Device ${row.deviceCode} was removed on ${dev.removed_at}`,
        );
      } else if (dev.location_id !== target?.id) {
        errors.add(
          row.line,
          'SERIAL_USED_ELSEWHERE',
          { column: 'DeviceCode', code: row.deviceCode, address: dev.address },
          `Serial ${row.deviceCode} belongs to a device at ${dev.address}`,
        );
      } else if (dev.device_type_id !== row.typeId) {
        errors.add(
          row.line,
          'DEVICE_TYPE_CHANGED',
          { column: 'DeviceCode', code: row.deviceCode, type: dev.device_type_id },
          `Device ${row.deviceCode} is of type ${dev.device_type_id}`,
        );
      }
    }
    serials.set(row.deviceCode, firstLine ?? row.line);
    if (errors.list.length === before) good.push(row);
  }

  // Locations: every level of every good row.
  const planned = new Map<string, NewLoc>();
  const touched = new Set<string>();
  for (const row of good) {
    for (let level = 1; level <= row.address.length; level++) {
      const key = keyOf(row.address.slice(0, level));
      if (touched.has(key)) continue;
      touched.add(key);
      const existing = stored.locations.get(key);
      if (existing) {
        if (level < 7) counts.Locations.Unchanged++;
        continue;
      }
      const parent =
        level === 1
          ? null
          : (stored.locations.get(keyOf(row.address.slice(0, level - 1))) ??
            planned.get(keyOf(row.address.slice(0, level - 1)))!);
      const flat = level === 7 ? flats.get(key)! : null;
      const loc: NewLoc = {
        id: 0,
        level,
        parentId: parent?.id ?? null,
        path: parent ? [...parent.path] : [],
        names: row.address.slice(0, level),
        flatOrder: flat?.flatOrder ?? null,
        clientId: null,
        clientCode: flat?.clientCode ?? null,
      };
      planned.set(key, loc);
      plan.newLocations.push(loc);
      counts.Locations.Created++;
    }
    if (row.address.length === 7) {
      const key = keyOf(row.address);
      const existing = stored.locations.get(key);
      const flat = flats.get(key)!;
      if (existing && flat.line === row.line) {
        const flatOrder = columns.has('FlatOrder') ? flat.flatOrder : existing.flatOrder;
        const clientCode = columns.has('ClientCode')
          ? flat.clientCode
          : (stored.clientCodes.get(existing.clientId ?? 0) ?? null);
        const storedCode = existing.clientId === null ? null : (stored.clientCodes.get(existing.clientId) ?? null);
        if (flatOrder !== existing.flatOrder || clientCode !== storedCode) {
          plan.flatUpdates.push({ loc: existing, flatOrder, clientCode });
          counts.Locations.Changed++;
        } else counts.Locations.Unchanged++;
      }
    }
  }

  // Objects and clients: by code; an empty name keeps the stored one (or is the code for a new one).
  const merge = (storedD: StoredDetails | undefined, d: Details): Details => ({
    ...d,
    name: d.name ?? storedD?.name ?? d.code,
  });
  const decide = (
    kind: 'Objects' | 'Clients',
    map: Map<string, StoredDetails>,
    d: Details,
    created: Details[],
    updates: DetailsUpdate[],
    done: Set<string>,
  ): Details | undefined => {
    if (done.has(d.code)) return undefined;
    done.add(d.code);
    const s = map.get(d.code);
    const after = merge(s, d);
    if (!s) {
      created.push(after);
      counts[kind].Created++;
    } else if (!sameDetails(s, after)) {
      updates.push({ before: s, after });
      counts[kind].Changed++;
    } else counts[kind].Unchanged++;
    return after;
  };
  const doneObjects = new Set<string>();
  const doneClients = new Set<string>();
  for (const row of good) {
    const newObject = decide('Objects', stored.objects, row.object, [], plan.objectUpdates, doneObjects);
    if (newObject && !stored.objects.has(row.object.code)) {
      plan.newObjects.push({ ...newObject, locationKey: keyOf(row.address.slice(0, 6)) });
    }
    if (row.client) decide('Clients', stored.clients, row.client, plan.newClients, plan.clientUpdates, doneClients);
  }

  // Devices.
  for (const row of good) {
    const values = {
      device_type_id: row.typeId,
      device_code: row.deviceCode,
      counter_code: row.counterCode,
      description: row.description,
      rating_factor: row.ratingFactor,
      installed_at: row.installedAt,
    };
    const dev = stored.devices.get(row.deviceCode);
    if (!dev) {
      plan.newDevices.push({ ...values, locationKey: keyOf(row.address) });
      counts.Devices.Created++;
      continue;
    }
    const after: DeviceValues = {
      ...values,
      location_id: dev.location_id,
      counter_code: columns.has('CounterCode') ? values.counter_code : dev.counter_code,
      description: columns.has('DeviceDescription') ? values.description : dev.description,
      rating_factor: columns.has('RatingFactor') ? values.rating_factor : dev.rating_factor,
      installed_at: values.installed_at ?? dev.installed_at,
    };
    const changed =
      after.counter_code !== dev.counter_code ||
      after.description !== dev.description ||
      !sameNumber(after.rating_factor, dev.rating_factor) ||
      after.installed_at !== dev.installed_at;
    if (changed) {
      plan.deviceUpdates.push({ before: dev, after });
      counts.Devices.Changed++;
    } else counts.Devices.Unchanged++;
  }
  return plan;
}

/** Rating factors are stored with 6 decimals. */
const sameNumber = (a: number | null, b: number | null) =>
  a === null || b === null ? a === b : Math.round(a * 1e6) === Math.round(b * 1e6);

async function loadStored(tx: Tx, rows: Row[]) {
  const countries = [...new Set(rows.map((r) => r.address[0]!.toLowerCase()))];
  const locations = new Map<string, Loc>();
  const { rows: locs } = await tx.query<{
    id: number;
    level: number;
    path: number[];
    names: (string | null)[];
    flat_order: number | null;
    client_id: number | null;
  }>(
    `SELECT id, level, path, ARRAY[country, county, region, city, street, building, flat] AS names, flat_order, client_id
       FROM location WHERE lower(country) = ANY($1::text[])`,
    [countries],
  );
  for (const l of locs) {
    const names = l.names.slice(0, l.level) as string[];
    locations.set(keyOf(names), {
      id: l.id,
      level: l.level,
      path: l.path,
      names,
      flatOrder: l.flat_order,
      clientId: l.client_id,
    });
  }
  const detailsColumns = `id, code, name, type_code AS "typeCode", type_name AS "typeName",
    category_code AS "categoryCode", category_name AS "categoryName"`;
  const { rows: objectRows } = await tx.query<StoredDetails & { locationId: number; address: string }>(
    `SELECT o.id, o.code, o.name, o.type_code AS "typeCode", o.type_name AS "typeName",
            o.category_code AS "categoryCode", o.category_name AS "categoryName", o.location_id AS "locationId",
            address_label(l) AS address
       FROM object o JOIN location l ON l.id = o.location_id`,
  );
  const objects = new Map(objectRows.map((o) => [o.code, o]));
  const objectsByLocation = new Map(objectRows.map((o) => [o.locationId, o.code]));
  const clientCodesInFile = [...new Set(rows.flatMap((r) => (r.client ? [r.client.code] : [])))];
  const { rows: clientRows } = await tx.query<StoredDetails>(
    `SELECT ${detailsColumns} FROM client WHERE code = ANY($1::text[])
     UNION SELECT ${detailsColumns} FROM client WHERE id IN (SELECT client_id FROM location WHERE lower(country) = ANY($2::text[]))`,
    [clientCodesInFile, countries],
  );
  const clients = new Map(clientRows.map((c) => [c.code, c]));
  const clientCodes = new Map(clientRows.map((c) => [c.id, c.code]));
  const { rows: deviceRows } = await tx.query<StoredDevice & { device_code: string }>(
    `SELECT d.id, d.device_code, d.device_type_id, d.location_id, d.counter_code, d.description,
            d.rating_factor::float8 AS rating_factor,
            to_char(d.installed_at, 'YYYY-MM-DD HH24:MI:SS') AS installed_at, iso(d.removed_at) AS removed_at,
            address_label(l) AS address
       FROM device d JOIN location l ON l.id = d.location_id
      WHERE d.device_code = ANY($1::text[])`,
    [rows.map((r) => r.deviceCode)],
  );
  const devices = new Map(deviceRows.map((d) => [d.device_code, d]));
  return { locations, objects, objectsByLocation, clients, clientCodes, devices };
}

// ---- Writing ----

const detailsJson = (d: Details) => ({
  Code: d.code,
  Name: d.name,
  TypeCode: d.typeCode,
  TypeName: d.typeName,
  CategoryCode: d.categoryCode,
  CategoryName: d.categoryName,
});

/**
 * Runs a bulk INSERT and logs every inserted row as created, the entry built in
 * SQL from the row itself: for 50,000 rows far cheaper than sending the JSON.
 */
async function insertLogged<R>(
  tx: Tx,
  actor: Actor,
  insert: string,
  params: unknown[],
  audit: { kind: AuditRecord['kind']; entity: string; after: string; returning: string },
): Promise<R[]> {
  const n = params.length;
  const { rows } = await tx.query<R>(
    `WITH ins AS (${insert} RETURNING *),
          logged AS (
            INSERT INTO audit_log (actor_id, actor_username, kind, entity, entity_id, after)
            SELECT $${n + 1}::int, $${n + 2}::text, '${audit.kind}', '${audit.entity}', ins.id::text, ${audit.after} FROM ins)
     SELECT ${audit.returning} FROM ins`,
    [...params, actor?.id ?? null, actor?.username ?? null],
  );
  return rows;
}

/** The audit entry of a created row, as SQL over `ins` (the keys match the JSON of changed rows below). */
const DETAILS_AUDIT = `jsonb_build_object('Code', ins.code, 'Name', ins.name, 'TypeCode', ins.type_code,
  'TypeName', ins.type_name, 'CategoryCode', ins.category_code, 'CategoryName', ins.category_name)`;
const LOCATION_AUDIT = `jsonb_build_object('Level', ins.level, 'Name', ins.name, 'FlatOrder', ins.flat_order,
  'Path', concat_ws(', ', ins.country, ins.county, ins.region, ins.city, ins.street, ins.building, ins.flat))
  || CASE WHEN ins.level = 7 THEN jsonb_build_object('ClientCode', (SELECT code FROM client WHERE id = ins.client_id))
          ELSE '{}' END`;
const DEVICE_AUDIT = `jsonb_build_object('DeviceCode', ins.device_code, 'DeviceTypeId', ins.device_type_id,
  'LocationId', ins.location_id, 'CounterCode', ins.counter_code, 'DeviceDescription', ins.description,
  'RatingFactor', ins.rating_factor, 'InstalledAt', to_char(ins.installed_at, 'YYYY-MM-DD HH24:MI:SS'))`;

async function writePlan(tx: Tx, plan: Plan, actor: Actor): Promise<void> {
  const audit: AuditRecord[] = [];
  const entry = (kind: AuditRecord['kind'], entity: string, id: number, before: unknown, after: unknown) =>
    audit.push({ actor, kind, entity, entityId: id, before, after });
  /** Clients and objects share their detail columns and are matched by code. */
  const updateDetails = async (table: 'client' | 'object', updates: DetailsUpdate[]) => {
    if (!updates.length) return;
    await tx.query(
      `UPDATE ${table} x SET name = u.name, type_code = u.tc, type_name = u.tn, category_code = u.cc, category_name = u.cn
         FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) AS u(code, name, tc, tn, cc, cn)
        WHERE x.code = u.code`,
      detailsArrays(updates.map((u) => u.after)),
    );
    for (const u of updates) entry(`${table}.update`, table, u.before.id, detailsJson(u.before), detailsJson(u.after));
  };

  // Clients first: flats link to them.
  const clientIds = new Map<string, number>();
  for (const { before } of plan.clientUpdates) clientIds.set(before.code, before.id);
  if (plan.newClients.length) {
    const rows = await insertLogged<{ id: number; code: string }>(
      tx,
      actor,
      `INSERT INTO client (code, name, type_code, type_name, category_code, category_name)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[])`,
      detailsArrays(plan.newClients),
      { kind: 'client.create', entity: 'client', after: DETAILS_AUDIT, returning: 'id, code' },
    );
    for (const r of rows) clientIds.set(r.code, r.id);
  }
  await updateDetails('client', plan.clientUpdates);
  const clientIdOf = async (code: string | null): Promise<number | null> => {
    if (code === null) return null;
    const known = clientIds.get(code);
    if (known !== undefined) return known;
    const { rows } = await tx.query<{ id: number }>('SELECT id FROM client WHERE code = $1', [code]);
    clientIds.set(code, rows[0]!.id);
    return rows[0]!.id;
  };

  // New locations, with ids taken up front so that paths can be built here.
  if (plan.newLocations.length) {
    const { rows: ids } = await tx.query<{ id: number }>(
      `SELECT nextval(pg_get_serial_sequence('location', 'id'))::int AS id FROM generate_series(1, $1::int)`,
      [plan.newLocations.length],
    );
    const byKey = new Map<string, NewLoc>();
    plan.newLocations.forEach((loc, i) => {
      loc.id = ids[i]!.id;
      const parentKey = keyOf(loc.names.slice(0, -1));
      const parent = loc.level === 1 ? undefined : (plan.locationsByKey.get(parentKey) ?? byKey.get(parentKey)!);
      loc.parentId = parent?.id ?? null;
      loc.path = [...(parent?.path ?? []), loc.id];
      byKey.set(keyOf(loc.names), loc);
    });
    for (const loc of plan.newLocations) loc.clientId = await clientIdOf(loc.clientCode);
    const col = (i: number) => plan.newLocations.map((l) => l.names[i] ?? null);
    await insertLogged(
      tx,
      actor,
      `INSERT INTO location (id, parent_id, level, name, flat_order, path, country, county, region, city, street, building, flat, client_id)
       SELECT u.id, u.parent_id, u.level, u.name, u.flat_order, u.path::int[], u.c1, u.c2, u.c3, u.c4, u.c5, u.c6, u.c7, u.client_id
         FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::int[], $6::text[], $7::text[], $8::text[], $9::text[],
                     $10::text[], $11::text[], $12::text[], $13::text[], $14::int[])
           AS u(id, parent_id, level, name, flat_order, path, c1, c2, c3, c4, c5, c6, c7, client_id)`,
      [
        plan.newLocations.map((l) => l.id),
        plan.newLocations.map((l) => l.parentId),
        plan.newLocations.map((l) => l.level),
        plan.newLocations.map((l) => l.names[l.level - 1]!),
        plan.newLocations.map((l) => l.flatOrder),
        plan.newLocations.map((l) => `{${l.path.join(',')}}`),
        col(0),
        col(1),
        col(2),
        col(3),
        col(4),
        col(5),
        col(6),
        plan.newLocations.map((l) => l.clientId),
      ],
      { kind: 'location.create', entity: 'location', after: LOCATION_AUDIT, returning: 'id' },
    );
    for (const loc of plan.newLocations) plan.locationsByKey.set(keyOf(loc.names), loc);
  }
  if (plan.flatUpdates.length) {
    const clientIdsOfFlats: (number | null)[] = [];
    for (const u of plan.flatUpdates) clientIdsOfFlats.push(await clientIdOf(u.clientCode));
    await tx.query(
      `UPDATE location l SET flat_order = u.flat_order, client_id = u.client_id
         FROM unnest($1::int[], $2::int[], $3::int[]) AS u(id, flat_order, client_id) WHERE l.id = u.id`,
      [plan.flatUpdates.map((u) => u.loc.id), plan.flatUpdates.map((u) => u.flatOrder), clientIdsOfFlats],
    );
    const { rows: oldCodes } = await tx.query<{ id: number; code: string }>(
      'SELECT id, code FROM client WHERE id = ANY($1::int[])',
      [plan.flatUpdates.map((u) => u.loc.clientId).filter((id) => id !== null)],
    );
    const codeOf = new Map(oldCodes.map((c) => [c.id, c.code]));
    for (const u of plan.flatUpdates) {
      entry(
        'location.update',
        'location',
        u.loc.id,
        locationJson(u.loc, u.loc.clientId === null ? null : (codeOf.get(u.loc.clientId) ?? null)),
        locationJson({ ...u.loc, flatOrder: u.flatOrder }, u.clientCode),
      );
    }
  }

  // Objects.
  if (plan.newObjects.length) {
    await insertLogged(
      tx,
      actor,
      `INSERT INTO object (code, name, type_code, type_name, category_code, category_name, location_id)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::int[])`,
      [...detailsArrays(plan.newObjects), plan.newObjects.map((o) => plan.locationsByKey.get(o.locationKey)!.id)],
      { kind: 'object.create', entity: 'object', after: DETAILS_AUDIT, returning: 'id' },
    );
  }
  await updateDetails('object', plan.objectUpdates);

  // Devices.
  if (plan.newDevices.length) {
    const values = plan.newDevices.map((d) => ({ ...d, location_id: plan.locationsByKey.get(d.locationKey)!.id }));
    await insertLogged(
      tx,
      actor,
      `INSERT INTO device (device_type_id, location_id, device_code, counter_code, description, rating_factor, installed_at)
       SELECT u.t, u.l, u.code, u.counter, u.descr, u.rf, u.inst::timestamp::timestamptz
         FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::numeric[], $7::text[])
           AS u(t, l, code, counter, descr, rf, inst)`,
      deviceArrays(values),
      { kind: 'device.create', entity: 'device', after: DEVICE_AUDIT, returning: 'id' },
    );
  }
  if (plan.deviceUpdates.length) {
    await tx.query(
      `UPDATE device d SET counter_code = u.counter, description = u.descr, rating_factor = u.rf,
              installed_at = u.inst::timestamp::timestamptz
         FROM unnest($1::int[], $2::int[], $3::text[], $4::text[], $5::text[], $6::numeric[], $7::text[])
           AS u(t, l, code, counter, descr, rf, inst)
        WHERE d.device_code = u.code`,
      deviceArrays(plan.deviceUpdates.map((u) => u.after)),
    );
    for (const u of plan.deviceUpdates) {
      entry(
        'device.update',
        'device',
        u.before.id,
        deviceJson({ ...u.before, device_code: u.after.device_code }),
        deviceJson(u.after),
      );
    }
  }
  await recordAudit(tx, audit);
}

const detailsArrays = (list: Details[]) => [
  list.map((d) => d.code),
  list.map((d) => d.name ?? d.code),
  list.map((d) => d.typeCode),
  list.map((d) => d.typeName),
  list.map((d) => d.categoryCode),
  list.map((d) => d.categoryName),
];

const deviceArrays = (list: DeviceValues[]) => [
  list.map((d) => d.device_type_id),
  list.map((d) => d.location_id),
  list.map((d) => d.device_code),
  list.map((d) => d.counter_code),
  list.map((d) => d.description),
  list.map((d) => d.rating_factor),
  list.map((d) => d.installed_at),
];

const deviceJson = (d: Omit<DeviceValues, 'location_id'> & { location_id: number }) => ({
  DeviceCode: d.device_code,
  DeviceTypeId: d.device_type_id,
  LocationId: d.location_id,
  CounterCode: d.counter_code,
  DeviceDescription: d.description,
  RatingFactor: d.rating_factor,
  InstalledAt: d.installed_at,
});

const locationJson = (l: Loc, clientCode: string | null) => ({
  Level: l.level,
  Name: l.names[l.level - 1],
  Path: l.names.join(', '),
  FlatOrder: l.flatOrder,
  ...(l.level === 7 ? { ClientCode: clientCode } : {}),
});

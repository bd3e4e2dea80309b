// Deterministic demo data: the same seed gives the same master data, and the
// readings end at `now`, so a demo always looks current.
//
// Measured 2026-11-22 on this 2-core machine while other jobs kept the load
// average at 11-15 (so wall times are inflated; CPU time is the better guide):
// - `small` on embedded PGlite (fresh folder, `node dist/cli/seed.js`): 94 locations,
//   8 buildings, 66 flats, 321 devices, 399,370 readings (every 8 h, 13 months + this
//   one); whole command incl. PGlite start and migrations 20-23 s wall, 8.8-9.5 s CPU;
//   the seed itself ~3.7-4 s CPU. COPY into PGlite costs ~7 us a reading, so `small`
//   is sized for the ~10 s first-start budget rather than for many flats.
// - `large` on PostgreSQL 15 (load 16-18): 2,149 flats, 10,540 devices, 29,023,698
//   hourly readings over ~3.7 months, 205 s (30 s of it JavaScript CPU).

import { DEVICE_TYPE, type DeviceRole, GROUP, type GroupId, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Db, Tx } from '../db/db.js';
import { hashPassword } from '../services/auth/password.js';
import { createMonthPartitions, monthsBetween } from '../services/partitions/partitions.js';
import { buildingIdOf } from '../services/sql.js';
import { type CaseDevice, type DemoCases, META } from './cases.js';
import { loadDemoHeat, planDemoHeat } from './heat-methods.js';
import {
  CITIES,
  COUNTRY,
  companyName,
  FEMALE_FIRST,
  femaleSurname,
  MALE_FIRST,
  MANUFACTURERS,
  MODELS,
  ROOMS,
  SURNAMES,
} from './names.js';
import { Rng } from './random.js';
import { type DeviceTypeId, READING_COPY, renderSeries, startValue, timeline } from './readings.js';

export type DemoSize = 'small' | 'medium' | 'large';

/** Explicit dimensions of a demo data set (the presets are DEMO_SIZES). */
export interface DemoCounts {
  buildings: number;
  /** Flats per building: a fixed number or a [min, max] range. The manager's building gets at least 8. */
  flatsPerBuilding: number | readonly [number, number];
  /** Readings start this many whole months before the current month (a day earlier, for time zones). */
  months: number;
  /** One reading per device every this many hours (a divisor of 24). */
  intervalHours: number;
}

export const DEMO_SIZES: Readonly<Record<DemoSize, DemoCounts>> = {
  small: { buildings: 8, flatsPerBuilding: [5, 12], months: 13, intervalHours: 8 },
  medium: { buildings: 100, flatsPerBuilding: [6, 14], months: 13, intervalHours: 6 },
  // For benchmarks: ~11,000 devices, hourly, ~3 months = 20+ million readings.
  large: { buildings: 150, flatsPerBuilding: [10, 20], months: 3, intervalHours: 1 },
};

export const DEMO_PASSWORD = 'demo1234';

export interface DemoAccount {
  username: string;
  groupId: GroupId;
  firstName: string;
  lastName: string;
  email: string;
}

/** Group 1 sees everything, group 2 one municipality, group 3 one building (DemoCases.buildingId). */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  {
    username: 'operator',
    groupId: GROUP.operator,
    firstName: 'Rasa',
    lastName: 'Petrauskienė',
    email: 'operator@demo.rodmenys.lt',
  },
  {
    username: 'admin',
    groupId: GROUP.admin,
    firstName: 'Tomas',
    lastName: 'Kazlauskas',
    email: 'admin@demo.rodmenys.lt',
  },
  {
    username: 'manager',
    groupId: GROUP.user,
    firstName: 'Eglė',
    lastName: 'Jankauskaitė',
    email: 'manager@demo.rodmenys.lt',
  },
];

export interface SeedDemoOptions {
  size: DemoSize | DemoCounts;
  seed?: number;
  now?: Date;
}

export interface DemoSummary {
  size: string;
  seed: number;
  /** The readings' period (ISO times). */
  from: string;
  until: string;
  intervalHours: number;
  locations: number;
  buildings: number;
  flats: number;
  clients: number;
  devices: number;
  devicesByType: Record<number, number>;
  readings: number;
  accounts: readonly DemoAccount[];
  password: string;
  ms: number;
}

/** The summary and the demo accounts, as the CLI and the server print them. */
export function formatDemoSummary(s: DemoSummary): string {
  const types = Object.entries(s.devicesByType)
    .map(([type, n]) => `type ${type}: ${n}`)
    .join(', ');
  return [
    `Demo data "${s.size}" (seed ${s.seed}) in ${(s.ms / 1000).toFixed(1)} s:`,
    `  ${s.buildings} buildings, ${s.flats} flats, ${s.clients} clients, ${s.locations} locations`,
    `  ${s.devices} devices (${types})`,
    `  ${s.readings} readings every ${s.intervalHours} h from ${s.from} to ${s.until}`,
    formatDemoAccounts(s.accounts, s.password),
  ].join('\n');
}

/** The demo accounts, one a line, as the server prints them at every start of a demo database. */
export function formatDemoAccounts(accounts: readonly DemoAccount[] = DEMO_ACCOUNTS, password = DEMO_PASSWORD): string {
  return [
    `Demo accounts (password for all: ${password}):`,
    ...accounts.map((a) => `  ${a.username.padEnd(9)} group ${a.groupId}  ${a.firstName} ${a.lastName}`),
  ].join('\n');
}

export class DemoSeedError extends Error {}

const DAY = 86_400_000;

interface LocationRow {
  id: number;
  parentId: number | null;
  level: number;
  name: string;
  flatOrder: number | null;
  path: number[];
  /** Names from the country down to this node (country, county, region, city, street, building, flat). */
  address: string[];
  clientId: number | null;
}

interface DeviceRow extends CaseDevice {
  deviceTypeId: DeviceTypeId;
  counterCode: string;
  /** One of MODELS, so the collector configuration names a real driver. */
  model: string;
  description: string;
  ratingFactor: string | null;
  installedAt: string;
  /** A building-level role (docs/heat-method.md, "Devices"); the demo's heat methods add them. */
  role?: DeviceRole | null;
}

interface MasterData {
  locations: LocationRow[];
  clients: string[][];
  objects: string[][];
  devices: DeviceRow[];
  buildings: number;
  flats: number;
  /** The manager's building: flats, building id, area id. */
  managerBuilding: LocationRow;
  area: LocationRow;
  casesIn: { silent: DeviceRow; reset: DeviceRow; gap: DeviceRow; never: LocationRow };
}

interface IdStart {
  location: number;
  client: number;
  object: number;
  device: number;
}

/** The master data, drawn from the seed alone (ids start after the ones in use). */
/**
 * The day `days` calendar days before the provider-zone day starting at `dayStartMs` (a local
 * midnight, within 14 hours of that day's UTC date), as YYYY-MM-DD.
 */
export function installationDay(dayStartMs: number, days: number): string {
  const noon = new Date(dayStartMs + 12 * 3_600_000);
  const utcDay = Date.UTC(noon.getUTCFullYear(), noon.getUTCMonth(), noon.getUTCDate());
  return new Date(utcDay - days * DAY).toISOString().slice(0, 10);
}

/** The model of a device of a type in a building (MODELS). */
function pickModel(typeId: DeviceTypeId, buildingId: number): string {
  const models = MODELS[typeId]!;
  return models[buildingId % models.length]!;
}

function buildMasterData(counts: DemoCounts, seed: number, dataStartMs: number, ids: IdStart): MasterData {
  const rng = new Rng(seed);
  const locations: LocationRow[] = [];
  const byKey = new Map<string, LocationRow>();
  const child = (parent: LocationRow | null, name: string, flatOrder: number | null = null): LocationRow => {
    const key = `${parent?.id ?? 0}/${name}`;
    const found = byKey.get(key);
    if (found) return found;
    const id = ++ids.location;
    const row: LocationRow = {
      id,
      parentId: parent?.id ?? null,
      level: (parent?.level ?? 0) + 1,
      name,
      flatOrder,
      path: [...(parent?.path ?? []), id],
      address: [...(parent?.address ?? []), name],
      clientId: null,
    };
    byKey.set(key, row);
    locations.push(row);
    return row;
  };
  const clients: string[][] = [];
  const objects: string[][] = [];
  const devices: DeviceRow[] = [];
  const serials = new Set<string>();
  const addDevice = (typeId: DeviceTypeId, at: LocationRow, description: string, ratingFactor: string | null) => {
    let code: string;
    do code = String(rng.int(10_000_000, 99_999_999));
    while (serials.has(code));
    serials.add(code);
    const radio = rng.int(0, 0xffffffff).toString(16).toUpperCase().padStart(8, '0');
    const device: DeviceRow = {
      deviceId: ++ids.device,
      deviceCode: code,
      deviceTypeId: typeId,
      locationId: at.id,
      counterCode: `${MANUFACTURERS[typeId]}${radio}`,
      // Not drawn from rng: the rest of the demo stays as it was before devices had models.
      model: pickModel(typeId, at.level === LOCATION_LEVEL.flat ? at.parentId! : at.id),
      description,
      ratingFactor,
      // A calendar day, read as midnight in the provider's zone by the COPY (the session's zone).
      // Subtracting 24-hour days from an instant instead slipped across DST: 23:00 on the day before.
      installedAt: installationDay(dataStartMs, rng.int(30, 2500)),
    };
    devices.push(device);
    return device;
  };
  const person = () => {
    const female = rng.chance(0.5);
    const surname = rng.pick(SURNAMES);
    return female
      ? `${rng.pick(FEMALE_FIRST)} ${femaleSurname(surname, rng.chance(0.7))}`
      : `${rng.pick(MALE_FIRST)} ${surname}`;
  };
  const [minFlats, maxFlats] =
    typeof counts.flatsPerBuilding === 'number'
      ? [counts.flatsPerBuilding, counts.flatsPerBuilding]
      : counts.flatsPerBuilding;

  const country = child(null, COUNTRY);
  const nextNumber = new Map<LocationRow, number>();
  let flats = 0;
  let manager: MasterData['managerBuilding'] | undefined;
  let casesIn: MasterData['casesIn'] | undefined;
  for (let b = 0; b < counts.buildings; b++) {
    // The first buildings share the manager's city, so the administrator's area holds several.
    const city = b < 3 ? CITIES[0]! : rng.weighted(CITIES);
    const street = child(
      child(child(child(country, city.county), city.municipality), city.city),
      rng.pick(city.streets),
    );
    const number = (nextNumber.get(street) ?? rng.int(0, 20)) + rng.int(1, 4);
    nextNumber.set(street, number);
    const building = child(street, `${number}${rng.chance(0.15) ? 'A' : ''}`);
    const objectCode = `OBJ-${String(b + 1).padStart(5, '0')}`;
    const mixed = rng.chance(0.1);
    objects.push([
      String(++ids.object),
      String(building.id),
      objectCode,
      `${street.name} ${building.name}, ${city.city}`,
      'DN',
      'Daugiabutis namas',
      mixed ? 'MISR' : 'BUTAS',
      mixed ? 'Mišrios paskirties' : 'Butų namas',
    ]);
    addDevice(DEVICE_TYPE.buildingHeatMeter, building, 'Šilumos punktas', null);
    // Some buildings bill heat by flat heat meters instead of allocators; the manager's has both.
    const heatMeters = b === 0 ? 'some' : rng.chance(0.25) ? 'all' : 'none';
    const flatCount = Math.max(b === 0 ? 8 : 1, rng.int(minFlats, maxFlats));
    const flatRows: LocationRow[] = [];
    const flatDevices: DeviceRow[][] = [];
    for (let f = 1; f <= flatCount; f++) {
      const flat = child(building, String(f), f);
      const company = rng.chance(0.08);
      flat.clientId = ++ids.client;
      clients.push([
        String(flat.clientId),
        `KL-${String(flat.clientId).padStart(6, '0')}`,
        company ? companyName((items) => rng.pick(items)) : person(),
        company ? 'JURIDINIS' : 'PRIVATUS',
        company ? 'Juridinis asmuo' : 'Fizinis asmuo',
        company ? 'PATALPA' : 'BUTAS',
        company ? 'Negyvenamoji patalpa' : 'Butas',
      ]);
      const own: DeviceRow[] = [];
      if (heatMeters === 'all' || (heatMeters === 'some' && f % 4 === 0)) {
        own.push(addDevice(DEVICE_TYPE.heatMeter, flat, 'Buto šilumos skaitiklis', null));
      } else {
        const allocators = rng.int(2, 5);
        for (let a = 0; a < allocators; a++)
          own.push(addDevice(DEVICE_TYPE.allocator, flat, ROOMS[a]!, rng.between(0.5, 2.5).toFixed(3)));
      }
      own.push(
        addDevice(DEVICE_TYPE.coldWaterMeter, flat, 'Šaltas vanduo', null),
        addDevice(DEVICE_TYPE.hotWaterMeter, flat, 'Karštas vanduo', null),
      );
      flatRows.push(flat);
      flatDevices.push(own);
    }
    flats += flatCount;
    if (b === 0) {
      manager = building;
      const ofType = (f: number, t: DeviceTypeId) => flatDevices[f]!.find((d) => d.deviceTypeId === t)!;
      casesIn = {
        silent: ofType(0, DEVICE_TYPE.allocator),
        reset: ofType(1, DEVICE_TYPE.coldWaterMeter),
        gap: ofType(2, DEVICE_TYPE.hotWaterMeter),
        never: flatRows[flatCount - 1]!,
      };
    }
  }
  if (!manager || !casesIn) throw new DemoSeedError('The demo needs at least one building');
  const area = locations.find((l) => l.id === manager.path[LOCATION_LEVEL.region - 1])!;
  return {
    locations,
    clients,
    objects,
    devices,
    buildings: counts.buildings,
    flats,
    managerBuilding: manager,
    area,
    casesIn,
  };
}

/** One CSV field: empty = NULL; quoted when it holds a separator, a quote or a line break. */
function csvField(v: string | number | null): string {
  if (v === null) return '';
  const s = String(v);
  return s === '' || /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

const csvRows = (rows: ReadonlyArray<ReadonlyArray<string | number | null>>): string[] =>
  rows.map((r) => `${r.map(csvField).join(',')}\n`);

async function loadMasterData(tx: Tx, m: MasterData): Promise<void> {
  await tx.copyIn(
    'COPY client (id, code, name, type_code, type_name, category_code, category_name) FROM STDIN WITH (FORMAT csv)',
    csvRows(m.clients),
  );
  await tx.copyIn(
    `COPY location (id, parent_id, level, name, flat_order, path, country, county, region, city, street, building, flat, client_id)
     FROM STDIN WITH (FORMAT csv)`,
    csvRows(
      m.locations.map((l) => [
        l.id,
        l.parentId,
        l.level,
        l.name,
        l.flatOrder,
        `{${l.path.join(',')}}`,
        ...Array.from({ length: 7 }, (_, i) => l.address[i] ?? null),
        l.clientId,
      ]),
    ),
  );
  await tx.copyIn(
    'COPY object (id, location_id, code, name, type_code, type_name, category_code, category_name) FROM STDIN WITH (FORMAT csv)',
    csvRows(m.objects),
  );
  await tx.copyIn(
    `COPY device (id, device_type_id, location_id, device_code, counter_code, description, rating_factor, installed_at, model,
                  role)
     FROM STDIN WITH (FORMAT csv)`,
    csvRows(
      m.devices.map((d) => [
        d.deviceId,
        d.deviceTypeId,
        d.locationId,
        d.deviceCode,
        d.counterCode,
        d.description,
        d.ratingFactor,
        d.installedAt,
        d.model,
        d.role ?? null,
      ]),
    ),
  );
  // How each device is read (docs/device-lifetime.md), so the remote-reading register has every kind:
  // every third building is read on a walk-by, one device in seven elsewhere is read by hand, the
  // rest remotely (no collector hears the demo). Not drawn from rng: the readings stay as they were.
  await tx.query(
    `UPDATE device d SET read_method = CASE WHEN ${buildingIdOf('l')} % 3 = 0 THEN 'walkby'
                                          WHEN d.id % 7 = 0 THEN 'manual' ELSE 'remote' END
       FROM location l WHERE l.id = d.location_id AND d.id = ANY ($1::int[])`,
    [m.devices.map((d) => d.deviceId)],
  );
  // Each flat's client lives there, since before the records (docs/occupancies.md).
  await tx.query(
    `INSERT INTO occupancy (location_id, client_id, name)
     SELECT l.id, l.client_id, c.name FROM location l JOIN client c ON c.id = l.client_id WHERE l.level = ${LOCATION_LEVEL.flat}`,
  );
  // Explicit ids were loaded: move the identity sequences past them.
  for (const table of ['client', 'location', 'object', 'device']) {
    await tx.query(
      `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT coalesce(max(id), 0) + 1 FROM ${table}), false)`,
    );
  }
}

/**
 * Runs `fn` with the primary key and foreign keys of `table` dropped and adds them
 * back after: one index build over the loaded rows and one validating join instead
 * of work per row (PostgreSQL's advice for bulk loads, "Populating a Database").
 */
async function withoutConstraints<T>(tx: Tx, table: string, fn: () => Promise<T>): Promise<T> {
  const { rows } = await tx.query<{ name: string; def: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def FROM pg_constraint
     WHERE conrelid = $1::regclass AND contype IN ('p', 'f') ORDER BY contype DESC, conname`,
    [table],
  );
  for (const c of rows) await tx.query(`ALTER TABLE ${table} DROP CONSTRAINT "${c.name}"`);
  const result = await fn();
  for (const c of rows) await tx.query(`ALTER TABLE ${table} ADD CONSTRAINT "${c.name}" ${c.def}`);
  return result;
}

interface Moments {
  dataStart: number;
  monthStart: number;
  gapStart: number;
}

/** Calendar points in the session's (the provider's) time zone. */
async function moments(tx: Tx, now: Date, months: number): Promise<Moments> {
  const { rows } = await tx.query<Moments>(
    `SELECT (extract(epoch FROM date_trunc('month', $1::timestamptz) - make_interval(months => $2) - interval '1 day') * 1000)::float8 AS "dataStart",
            (extract(epoch FROM date_trunc('month', $1::timestamptz)) * 1000)::float8 AS "monthStart",
            (extract(epoch FROM date_trunc('day', $1::timestamptz - interval '20 days')) * 1000)::float8 AS "gapStart"`,
    [now.toISOString(), months],
  );
  return rows[0]!;
}

/** Fills an empty database with demo data in one transaction and returns what it made. */
export async function seedDemo(db: Db, options: SeedDemoOptions): Promise<DemoSummary> {
  const started = performance.now();
  const { size, seed = 1, now = new Date() } = options;
  const counts = typeof size === 'string' ? DEMO_SIZES[size] : size;
  if (!Number.isInteger(seed)) throw new DemoSeedError('The seed must be a whole number');
  if (counts.buildings < 1 || 24 % counts.intervalHours !== 0 || counts.months < 0) {
    throw new DemoSeedError('The demo needs at least one building, whole months and an interval that divides 24 hours');
  }
  const nowMs = now.getTime();
  // The months it writes into get their partitions first (docs/scaling.md): the default partition stays empty.
  await createMonthPartitions(
    db,
    monthsBetween(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - counts.months - 1, 1)), now),
  );
  // Hash before the transaction: PGlite holds its one session while a transaction runs.
  const hashes = await Promise.all(DEMO_ACCOUNTS.map(() => hashPassword(DEMO_PASSWORD)));
  return db.transaction(async (tx) => {
    const used = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM location');
    if (used.rows[0]!.n > 0)
      throw new DemoSeedError('The database already has locations: demo data goes only into an empty one');
    const { rows: idRows } = await tx.query<IdStart>(
      `SELECT (SELECT coalesce(max(id), 0) FROM location)::int AS location, (SELECT coalesce(max(id), 0) FROM client)::int AS client,
              (SELECT coalesce(max(id), 0) FROM object)::int AS object, (SELECT coalesce(max(id), 0) FROM device)::int AS device`,
    );
    const at = await moments(tx, now, counts.months);
    const m = buildMasterData(counts, seed, at.dataStart, idRows[0]!);
    // The heat methods' buildings and devices (docs/heat-method.md), drawing nothing from the random numbers.
    const heat = planDemoHeat(m.locations, m.devices, m.managerBuilding.id, seed, installationDay(at.dataStart, 400));
    await loadMasterData(tx, m);
    const { rows: span } = await tx.query<{ first: string; year: number }>(
      `SELECT to_char(date_trunc('month', $1::timestamptz) - make_interval(months => $2), 'YYYY-MM') AS first,
              extract(year FROM $1::timestamptz)::int AS year`,
      [now.toISOString(), counts.months],
    );
    await loadDemoHeat(tx, heat, m.locations, span[0]!.first, span[0]!.year);
    const refused = new Set(heat.refusedDevices);

    const userIds: number[] = [];
    for (const [i, a] of DEMO_ACCOUNTS.entries()) {
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO app_user (username, password_hash, first_name, last_name, group_id, email, phone)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id`,
        [a.username, hashes[i], a.firstName, a.lastName, a.groupId, a.email, `+3706000000${i + 1}`],
      );
      userIds.push(rows[0]!.id);
    }
    await tx.query('INSERT INTO location_right (user_id, location_id) VALUES ($1, $2), ($3, $4)', [
      userIds[1],
      m.area.id,
      userIds[2],
      m.managerBuilding.id,
    ]);

    const { silent, reset, gap, never } = m.casesIn;
    const silentSince = nowMs - 10 * DAY;
    const resetAt = at.monthStart + Math.floor((nowMs - at.monthStart) / 2);
    const gapTill = at.gapStart + 60 * 3_600_000;
    const line = timeline(counts.intervalHours, at.dataStart, nowMs);
    let readings = 0;
    async function* chunks(): AsyncGenerator<string> {
      let buffer = '';
      for (const d of m.devices) {
        if (d.locationId === never.id || refused.has(d.deviceId)) continue;
        const s = renderSeries(
          line,
          { id: d.deviceId, code: d.deviceCode, typeId: d.deviceTypeId, role: d.role ?? null },
          {
            seed,
            afterMs: at.dataStart,
            untilMs: nowMs,
            fromValue: startValue(seed, d.deviceCode, d.deviceTypeId, d.role ?? null),
            gaps: d === silent ? [[silentSince, Infinity]] : d === gap ? [[at.gapStart, gapTill]] : undefined,
            resetAtMs: d === reset ? resetAt : undefined,
          },
        );
        readings += s.count;
        buffer += s.csv;
        if (buffer.length > 1 << 20) {
          yield buffer;
          buffer = '';
        }
      }
      if (buffer) yield buffer;
    }
    await withoutConstraints(tx, 'reading', () => tx.copyIn(READING_COPY, chunks()));
    // LastSeen: every path that inserts readings keeps device_status.last_seen (migration 030).
    await tx.query('SELECT keep_last_seen(array(SELECT id FROM device))');

    const iso = (ms: number) => new Date(ms).toISOString();
    const caseOf = (d: DeviceRow): CaseDevice => ({
      deviceId: d.deviceId,
      deviceCode: d.deviceCode,
      deviceTypeId: d.deviceTypeId,
      locationId: d.locationId,
    });
    const cases: DemoCases = {
      buildingId: m.managerBuilding.id,
      objectCode: m.objects[0]![2]!,
      areaId: m.area.id,
      silent: { ...caseOf(silent), silentSince: iso(silentSince) },
      reset: { ...caseOf(reset), resetAt: iso(resetAt) },
      gap: { ...caseOf(gap), from: iso(at.gapStart), till: iso(gapTill) },
      neverReported: {
        locationId: never.id,
        deviceIds: m.devices.filter((d) => d.locationId === never.id).map((d) => d.deviceId),
      },
      heat,
    };
    const sizeName = typeof size === 'string' ? size : 'custom';
    const meta: Array<[string, string]> = [
      [META.demo, 'true'],
      [META.seed, String(seed)],
      [META.size, sizeName],
      [META.intervalHours, String(counts.intervalHours)],
      [META.generatedUntil, iso(nowMs)],
      [META.cases, JSON.stringify(cases)],
    ];
    for (const [key, value] of meta) {
      await tx.query(
        'INSERT INTO app_meta (key, value) VALUES ($1, $2) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
        [key, value],
      );
    }
    await tx.exec('ANALYZE location, object, client, device, reading, location_right');

    const devicesByType: Record<number, number> = {};
    for (const d of m.devices) devicesByType[d.deviceTypeId] = (devicesByType[d.deviceTypeId] ?? 0) + 1;
    return {
      size: sizeName,
      seed,
      from: iso(at.dataStart),
      until: iso(nowMs),
      intervalHours: counts.intervalHours,
      locations: m.locations.length,
      buildings: m.buildings,
      flats: m.flats,
      clients: m.clients.length,
      devices: m.devices.length,
      devicesByType,
      readings,
      accounts: DEMO_ACCOUNTS,
      password: DEMO_PASSWORD,
      ms: Math.round(performance.now() - started),
    };
  });
}

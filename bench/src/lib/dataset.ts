/**
 * The benchmark dataset: a real location tree (Lietuva > county > municipality >
 * city > street > building > flat), an object per building, a client per flat,
 * devices of types 1, 2, 3, 4 and 11, and cumulative readings on an hourly grid
 * (per-device minute jitter) up to `end`, generated as CSV text for COPY.
 *
 * Everything is deterministic (seeded per device), so a reading subset for
 * PGlite holds exactly the values the PostgreSQL server holds for those devices.
 * A few devices carry the cases users must see: never reported, silent since
 * some day, a meter reset, a gap of a few days.
 */

import type { DeviceTypeId } from '@rodmenys/contract';
import { CITIES, COUNTRY, MALE_FIRST, ROOMS, SURNAMES } from '@rodmenys/server/demo/names.js';
import { Rng } from '@rodmenys/server/demo/random.js';

const HOUR = 3_600_000;

/** A CSV field: quoted when it holds a comma or a quote; empty for null. */
const csv = (v: string | number | null | undefined) => {
  if (v === null || v === undefined) return '';
  const s = String(v);
  return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
};
const csvRow = (values: readonly (string | number | null | undefined)[]) => `${values.map(csv).join(',')}\n`;

type Case = 'normal' | 'never' | 'silent' | 'reset' | 'gap';

interface Device {
  id: number;
  type: DeviceTypeId;
  locationId: number;
  buildingId: number;
  case: Case;
}

export interface Building {
  /** The building's location id. */
  locationId: number;
  /** Devices per type in the building. */
  devices: Record<number, number>;
}

export interface DatasetOptions {
  /** At least this many devices (whole buildings are added until it is reached). */
  devices: number;
  /** And at least this many flats (default 0). */
  flats?: number;
  /** At least this many readings in all. */
  readings: number;
  /** The last reading is at or before this time. */
  end: Date;
  /** Readings must reach back at least to this time. */
  coverFrom: Date;
  seed?: number;
}

export interface Dataset {
  buildings: Building[];
  deviceCount: number;
  /** Readings per device that reports all the time, and their spacing. */
  perDevice: number;
  intervalHours: number;
  start: Date;
  end: Date;
  /** COPY statements and their CSV chunks for the master data, in load order. */
  masterData(): Array<{ sql: string; rows: string[] }>;
  /** The ids of the devices in these buildings (by the building's location id). */
  devicesIn(buildings: ReadonlySet<number>): Set<number>;
  /** The COPY statement for readings. */
  readingsSql: string;
  /** Reading CSV chunks (one per device) for the chosen devices (default all), within [from, till). */
  readings(filter?: { devices?: ReadonlySet<number>; from?: Date; till?: Date }): Generator<string>;
  /** How many reading rows the last `readings()` iteration produced. */
  readonly lastReadingCount: number;
}

/** Builds the dataset description; rows are generated lazily when loaded. */
export function createDataset(options: DatasetOptions): Dataset {
  const seed = options.seed ?? 1;
  const rng = new Rng(seed);
  const rnd = () => rng.next();
  const locations: string[] = [];
  const objects: string[] = [];
  const clients: string[] = [];
  const deviceRows: string[] = [];
  const devices: Device[] = [];
  const buildings: Building[] = [];
  let nextLocation = 1;

  const addLocation = (
    parent: { id: number; path: number[]; names: (string | null)[] } | null,
    level: number,
    name: string,
    flatOrder: number | null = null,
    clientId: number | null = null,
  ) => {
    const id = nextLocation++;
    const path = [...(parent?.path ?? []), id];
    const names = [...(parent?.names ?? []), name];
    const address = Array.from({ length: 7 }, (_, i) => names[i] ?? null);
    locations.push(
      csvRow([id, parent?.id ?? null, level, name, flatOrder, `{${path.join(',')}}`, ...address, clientId]),
    );
    return { id, path, names };
  };

  const country = addLocation(null, 1, COUNTRY);
  // Several cities share a county or a municipality: one node each.
  const areas = new Map<string, ReturnType<typeof addLocation>>();
  const area = (parent: ReturnType<typeof addLocation>, level: number, name: string) => {
    const key = `${parent.id}/${name}`;
    if (!areas.has(key)) areas.set(key, addLocation(parent, level, name));
    return areas.get(key)!;
  };
  const cities = CITIES.map((c) => ({
    node: area(area(area(country, 2, c.county), 3, c.municipality), 4, c.city),
    names: c.streets,
    streets: new Map<string, ReturnType<typeof addLocation>>(),
  }));

  const installedAt = new Date(options.coverFrom.getTime() - 400 * 24 * HOUR).toISOString();
  let serial = 40_000_000;
  const addDevice = (type: Device['type'], location: number, building: number, description: string) => {
    const id = devices.length + 1;
    // A few devices carry the cases users must see.
    const r = rnd();
    const kind: Case = r < 0.003 ? 'never' : r < 0.013 ? 'silent' : r < 0.016 ? 'reset' : r < 0.026 ? 'gap' : 'normal';
    devices.push({ id, type, locationId: location, buildingId: building, case: kind });
    serial += 1 + Math.floor(rnd() * 7);
    const rating = type === 1 ? (0.5 + rnd() * 2).toFixed(3) : null;
    deviceRows.push(
      csvRow([id, type, location, String(serial), `C${(serial * 7) % 100_000_000}`, description, rating, installedAt]),
    );
    const b = buildings.at(-1)!;
    b.devices[type] = (b.devices[type] ?? 0) + 1;
  };

  let flatCount = 0;
  for (let i = 0; devices.length < options.devices || flatCount < (options.flats ?? 0); i++) {
    const city = cities[i % cities.length]!;
    const streetName = city.names[Math.floor(i / cities.length) % city.names.length]!;
    let street = city.streets.get(streetName);
    if (!street) {
      street = addLocation(city.node, 5, streetName);
      city.streets.set(streetName, street);
    }
    const n = 1 + 2 * Math.floor(i / (cities.length * city.names.length));
    const building = addLocation(street, 6, i % 3 === 2 ? `${n}A` : String(n));
    buildings.push({ locationId: building.id, devices: {} });
    objects.push(
      csvRow([
        buildings.length,
        building.id,
        `OBJ-${String(buildings.length).padStart(5, '0')}`,
        `${streetName} ${building.names[5]}, ${city.node.names[3]}`,
        'DN',
        'Daugiabutis namas',
        'BUTAS',
        'Gyvenamasis',
      ]),
    );
    addDevice(11, building.id, building.id, 'Pastato įvadas');
    // Every fifth building heats flats by a flat heat meter, the others by allocators.
    const heatMeters = i % 5 === 4;
    const flats = 24 + Math.floor(rnd() * 37);
    for (let f = 1; f <= flats; f++) {
      const clientId = clients.length + 1;
      clients.push(
        csvRow([
          clientId,
          `CL-${String(clientId).padStart(6, '0')}`,
          `${rng.pick(MALE_FIRST)} ${rng.pick(SURNAMES)}`,
          'PRIVATUS',
          'Privatus asmuo',
          'GYV',
          'Gyventojas',
        ]),
      );
      const flat = addLocation(building, 7, String(f), f, clientId);
      flatCount++;
      if (heatMeters) addDevice(2, flat.id, building.id, 'Butas');
      else {
        const rooms = rng.int(3, ROOMS.length);
        for (let k = 0; k < rooms; k++) addDevice(1, flat.id, building.id, ROOMS[k]!);
      }
      addDevice(3, flat.id, building.id, 'Vonia');
      addDevice(4, flat.id, building.id, 'Vonia');
    }
  }

  // The grid: whole hours, reaching back to coverFrom (and a day more) or further.
  const end = Math.floor(options.end.getTime() / HOUR) * HOUR;
  // A few devices never report, stop early or skip days: 1.5% more per device makes up for them.
  const perDeviceWanted = Math.ceil(options.readings / (devices.length * 0.985));
  const needHours = Math.ceil((end - options.coverFrom.getTime()) / HOUR) + 24;
  const intervalHours = Math.max(1, Math.ceil(needHours / perDeviceWanted));
  const perDevice = Math.max(perDeviceWanted, Math.ceil(needHours / intervalHours));
  const start = end - (perDevice - 1) * intervalHours * HOUR;
  // "YYYY-MM-DD HH:" for every grid point, and a seasonal heating factor.
  const hourPrefix: string[] = [];
  const heatFactor: number[] = [];
  for (let k = 0; k < perDevice; k++) {
    const t = start + k * intervalHours * HOUR;
    hourPrefix.push(`${new Date(t).toISOString().slice(0, 13).replace('T', ' ')}:`);
    const dayOfYear = (t / (24 * HOUR)) % 365.25;
    heatFactor.push(Math.max(0.02, Math.cos((2 * Math.PI * (dayOfYear - 15)) / 365.25)));
  }

  let lastReadingCount = 0;
  function* readings(filter: { devices?: ReadonlySet<number>; from?: Date; till?: Date } = {}) {
    lastReadingCount = 0;
    const kFrom = filter.from ? Math.max(0, Math.ceil((filter.from.getTime() - start) / (intervalHours * HOUR))) : 0;
    const kTill = filter.till
      ? Math.min(perDevice, Math.ceil((filter.till.getTime() - start) / (intervalHours * HOUR)))
      : perDevice;
    for (const d of devices) {
      if (filter.devices && !filter.devices.has(d.id)) continue;
      if (d.case === 'never') continue;
      const series = new Rng(seed * 1_000_003 + d.id);
      const r = () => series.next();
      // Minutes 3..57 past the grid hour; the meter's clock is 2 minutes behind.
      const minute = 3 + Math.floor(r() * 55);
      const second = String(Math.floor(r() * 60)).padStart(2, '0');
      const ts = `${String(minute).padStart(2, '0')}:${second}+00`;
      const meterTs = `${String(minute - 2).padStart(2, '0')}:${second}+00`;
      // Consumption per hour, in thousandths (allocators: whole units).
      const heat = d.type === 1 || d.type === 2 || d.type === 11;
      const rate =
        (d.type === 1 ? 0.15 : d.type === 2 ? 0.6 : d.type === 11 ? 40 : d.type === 3 ? 0.012 : 0.006) *
        (0.5 + r()) *
        intervalHours;
      let value = d.type === 1 ? Math.floor(r() * 3000) : Math.floor((50 + r() * 900) * 1000);
      let acc = 0;
      const stopAt = d.case === 'silent' ? Math.floor(perDevice * (0.5 + r() * 0.5)) : perDevice;
      const resetAt = d.case === 'reset' ? Math.floor(perDevice * (0.6 + r() * 0.35)) : -1;
      const gapFrom = d.case === 'gap' ? Math.floor(r() * (perDevice - 80)) : -1;
      const gapTill = d.case === 'gap' ? gapFrom + Math.ceil((48 + r() * 24) / intervalHours) : -1;
      let chunk = '';
      for (let k = 0; k < stopAt; k++) {
        const step = rate * (heat ? heatFactor[k]! : 1) * (0.4 + 1.2 * r());
        if (d.type === 1) {
          acc += step;
          const whole = Math.floor(acc);
          value += whole;
          acc -= whole;
        } else value += Math.round(step * 1000);
        if (k === resetAt) value = d.type === 1 ? 0 : Math.floor(r() * 1000);
        if (k < kFrom || k >= kTill || (k >= gapFrom && k < gapTill)) continue;
        const shown = d.type === 1 ? value : value / 1000;
        chunk += `${d.id},${hourPrefix[k]}${ts},${hourPrefix[k]}${meterTs},${shown}\n`;
        lastReadingCount++;
      }
      if (chunk) yield chunk;
    }
  }

  return {
    buildings,
    deviceCount: devices.length,
    perDevice,
    intervalHours,
    start: new Date(start),
    end: new Date(end),
    masterData: () => [
      {
        sql: 'COPY client (id, code, name, type_code, type_name, category_code, category_name) FROM STDIN WITH (FORMAT csv)',
        rows: clients,
      },
      {
        sql: 'COPY location (id, parent_id, level, name, flat_order, path, country, county, region, city, street, building, flat, client_id) FROM STDIN WITH (FORMAT csv)',
        rows: locations,
      },
      {
        sql: 'COPY object (id, location_id, code, name, type_code, type_name, category_code, category_name) FROM STDIN WITH (FORMAT csv)',
        rows: objects,
      },
      {
        sql: 'COPY device (id, device_type_id, location_id, device_code, counter_code, description, rating_factor, installed_at) FROM STDIN WITH (FORMAT csv)',
        rows: deviceRows,
      },
    ],
    devicesIn: (ids) => new Set(devices.filter((d) => ids.has(d.buildingId)).map((d) => d.id)),
    readingsSql: 'COPY reading (device_id, ts, meter_ts, value) FROM STDIN WITH (FORMAT csv)',
    readings,
    get lastReadingCount() {
      return lastReadingCount;
    },
  };
}

/** The first buildings, in order, whose devices of `typeId` add up to at least `target` (all of them for Infinity). */
export function firstBuildings(
  dataset: Dataset,
  target: number,
  typeId: number,
): { parents: number[]; devices: number } {
  const parents: number[] = [];
  let devices = 0;
  for (const b of dataset.buildings) {
    if (devices >= target) break;
    const n = b.devices[typeId] ?? 0;
    if (n === 0) continue;
    parents.push(b.locationId);
    devices += n;
  }
  return { parents, devices };
}

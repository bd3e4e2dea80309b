import { DEVICE_TYPE, type DeviceRole, LOCATION_LEVEL } from '@rodmenys/contract';
import type { CaseDevice } from '../cases.js';
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
} from '../names.js';
import { Rng } from '../random.js';
import type { DeviceTypeId } from '../readings.js';
import { type DemoCounts, DemoSeedError } from './settings.js';

const DAY = 86_400_000;

export interface LocationRow {
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

export interface DeviceRow extends CaseDevice {
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

export interface MasterData {
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

export interface IdStart {
  location: number;
  client: number;
  object: number;
  device: number;
}

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

/** The master data, drawn from the seed alone (ids start after the ones in use). */
export function buildMasterData(counts: DemoCounts, seed: number, dataStartMs: number, ids: IdStart): MasterData {
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

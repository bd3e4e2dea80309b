import type { DeviceRole, ImportCounts, ImportErrorCode, ImportRowError } from '@rodmenys/contract';
import { locationKey } from '../../locations/insert-locations.js';

/** The details of an object or a client: matched by code, the rest authoritative when given. */
export interface Details {
  code: string;
  name: string | null;
  typeCode: string | null;
  typeName: string | null;
  categoryCode: string | null;
  categoryName: string | null;
}

/**
 * The flat's occupant a row names (the Occupant…, MoveIn, MoveOut and Consent… columns; docs/occupancies.md):
 * the account is the row's ClientCode. Days are 'YYYY-MM-DD'; MoveOut is the first day no longer there.
 */
export interface RowOccupancy {
  name: string | null;
  email: string | null;
  phone: string | null;
  language: 'lt' | 'en' | null;
  moveIn: string | null;
  moveOut: string | null;
  consentAt: string | null;
  consentChannel: 'email' | 'portal' | 'paper' | null;
}

/** A register row after cell validation (rows.ts). */
export interface Row {
  line: number;
  /** Names from the country down to the building, and the flat for flat devices. */
  address: string[];
  flatOrder: number | null;
  /** The flat's floor area, m² (FlatArea). */
  flatArea: number | null;
  object: Details;
  client: Details | null;
  typeId: number;
  deviceCode: string;
  counterCode: string | null;
  description: string | null;
  ratingFactor: number | null;
  /** The device's model (Model); null = not given, which keeps the stored one. */
  model: string | null;
  /** A LoRaWAN meter's DevEUI (DevEui), upper case; null = not given, which keeps the stored one (docs/lorawan.md). */
  devEui: string | null;
  /** Local time 'YYYY-MM-DD HH:MM:SS' (the provider zone), or null = not given. */
  installedAt: string | null;
  /** The day of its verification or manufacture (VerifiedOn), YYYY-MM-DD; null = not given, which keeps the stored one. */
  verifiedOn: string | null;
  /** How it is read (ReadMethod); null = not given, which keeps the stored one. */
  readMethod: string | null;
  /** A building-level role (DeviceRole); null = not given, which keeps the stored one. */
  role: DeviceRole | null;
  /** The occupant the row names, when any occupancy cell is filled (then ClientCode is required). */
  occupancy: RowOccupancy | null;
}

/** Every problem found in the file, by line; any one of them and nothing is written. */
export class RowErrors {
  list: ImportRowError[] = [];
  add(line: number, code: ImportErrorCode, params: Record<string, string | number>, message: string) {
    this.list.push({ Line: line, Code: code, Params: params, Message: message });
  }
  get count() {
    return this.list.length;
  }
}

export type Counts = Record<'Locations' | 'Objects' | 'Clients' | 'Devices' | 'Occupancies', ImportCounts>;

export const emptyCounts = (): Counts => ({
  Occupancies: { Created: 0, Changed: 0, Unchanged: 0 },
  Locations: { Created: 0, Changed: 0, Unchanged: 0 },
  Objects: { Created: 0, Changed: 0, Unchanged: 0 },
  Clients: { Created: 0, Changed: 0, Unchanged: 0 },
  Devices: { Created: 0, Changed: 0, Unchanged: 0 },
});

/** The natural key of a location: its address names from the country down, case-insensitive. */
export const keyOf = locationKey;

/** A stored location, or a planned one once written. */
export interface Loc {
  id: number;
  level: number;
  path: number[];
  names: string[];
  flatOrder: number | null;
  areaM2: number | null;
  clientId: number | null;
}

export interface NewLoc extends Loc {
  parentId: number | null;
  /** The client code to link (flats). */
  clientCode: string | null;
}

export interface StoredDetails extends Details {
  id: number;
}

export interface StoredDevice {
  id: number;
  device_type_id: number;
  location_id: number;
  counter_code: string | null;
  description: string | null;
  rating_factor: number | null;
  model: string | null;
  dev_eui: string | null;
  /** Local time 'YYYY-MM-DD HH:MM:SS', comparable with Row.installedAt. */
  installed_at: string | null;
  verified_on: string | null;
  read_method: string | null;
  role: string | null;
  removed_at: string | null;
  address: string;
}

/** The columns of `device` an import writes. */
export interface DeviceValues {
  device_type_id: number;
  location_id: number;
  device_code: string;
  counter_code: string | null;
  description: string | null;
  rating_factor: number | null;
  model: string | null;
  installed_at: string | null;
  verified_on: string | null;
  read_method: string | null;
  role: string | null;
  dev_eui: string | null;
}

/** What is stored of the records the file names (stored.ts). */
export interface Stored {
  /** Locations by keyOf(address), the file's countries only. */
  locations: Map<string, Loc>;
  objects: Map<string, StoredDetails & { locationId: number; address: string }>;
  /** Object code by building id. */
  objectsByLocation: Map<number, string>;
  clients: Map<string, StoredDetails>;
  /** Client code by id. */
  clientCodes: Map<number, string>;
  devices: Map<string, StoredDevice>;
  /** The serial of the stored device holding each DevEUI the file names. */
  devEuis: Map<string, string>;
}

/** What an import creates and changes (plan.ts), written by write.ts. */
export interface Plan {
  counts: Counts;
  newLocations: NewLoc[];
  /** Flats whose order, area or client changes. */
  flatUpdates: { loc: Loc; flatOrder: number | null; areaM2: number | null; clientCode: string | null }[];
  newClients: Details[];
  clientUpdates: Details[];
  newObjects: (Details & { locationKey: string })[];
  objectUpdates: Details[];
  newDevices: (Omit<DeviceValues, 'location_id'> & { locationKey: string })[];
  deviceUpdates: DeviceValues[];
  /** Stored locations, and the planned ones once written (with their ids). */
  locationsByKey: Map<string, Loc>;
}

import type { DataLoadProc } from './devices.js';

/** Longest device model the API and the register accept, in characters. */
export const DEVICE_MODEL_MAX_LENGTH = 100;

/** A device model the product knows, with the wmbusmeters driver that decodes its telegrams. */
export interface KnownDeviceModel {
  /** As the manufacturer writes it (the master-data form suggests this spelling). */
  name: string;
  /** The wmbusmeters driver (a name of its drivers/src folder). */
  driver: string;
  /** The readings computation of the device types it fits, to suggest it for those only. */
  dataLoadProc: DataLoadProc;
}

/**
 * The models whose wmbusmeters driver is known (docs/collectors.md, "Drivers"): the master-data
 * form suggests them, the collector configuration takes a device's driver from here. A model
 * matches whatever its case and spacing (`deviceModelKey`). A new model is a line here.
 */
export const DEVICE_MODELS: readonly KnownDeviceModel[] = [
  { name: 'Q caloric', driver: 'qcaloric', dataLoadProc: 'allocator' },
  { name: 'Q caloric 5.5', driver: 'qcaloric', dataLoadProc: 'allocator' },
  { name: 'Sontex 868', driver: 'sontex868', dataLoadProc: 'allocator' },
  { name: 'FHKV data III', driver: 'fhkvdataiii', dataLoadProc: 'allocator' },
  { name: 'FHKV data IV', driver: 'fhkvdataiv', dataLoadProc: 'allocator' },
  { name: 'Brunata Futura+', driver: 'bfw240radio', dataLoadProc: 'allocator' },
  { name: 'Kaden HCA', driver: 'kaden', dataLoadProc: 'allocator' },
  { name: 'LSE HCA', driver: 'lse_08', dataLoadProc: 'allocator' },
  { name: 'Hydroclima', driver: 'hydroclimav2', dataLoadProc: 'allocator' },
  { name: 'Apator E-ITN 30.51', driver: 'apatoreitn', dataLoadProc: 'allocator' },
  { name: 'Q heat 5.5', driver: 'qheat', dataLoadProc: 'energy' },
  { name: 'Multical 302', driver: 'kamheat', dataLoadProc: 'energy' },
  { name: 'Multical 403', driver: 'kamheat', dataLoadProc: 'energy' },
  { name: 'Multical 603', driver: 'kamheat', dataLoadProc: 'energy' },
  { name: 'Sharky 775', driver: 'sharky', dataLoadProc: 'energy' },
  { name: 'Sharky 774', driver: 'sharky774', dataLoadProc: 'energy' },
  { name: 'Ultraheat T550', driver: 'ultraheat', dataLoadProc: 'energy' },
  { name: 'Compact V', driver: 'compact5', dataLoadProc: 'energy' },
  { name: 'Hydrocal M3', driver: 'hydrocalm3', dataLoadProc: 'energy' },
  { name: 'Supercal 5', driver: 'supercal', dataLoadProc: 'energy' },
  { name: 'Q water 5.5', driver: 'qwater', dataLoadProc: 'volume' },
  { name: 'Multical 21', driver: 'kamwater', dataLoadProc: 'volume' },
  { name: 'IZAR RC 868', driver: 'izar', dataLoadProc: 'volume' },
  { name: 'Apator AT-WMBUS-16-2', driver: 'apator162', dataLoadProc: 'volume' },
  { name: 'iPERL', driver: 'iperl', dataLoadProc: 'volume' },
  { name: 'Hydrus', driver: 'hydrus', dataLoadProc: 'volume' },
  { name: 'MK Radio 3', driver: 'mkradio3', dataLoadProc: 'volume' },
  { name: 'Hydrodigit', driver: 'hydrodigit', dataLoadProc: 'volume' },
  { name: 'WaterStar M', driver: 'waterstarm', dataLoadProc: 'volume' },
  { name: 'istameter', driver: 'istawater', dataLoadProc: 'volume' },
  { name: 'Minomess', driver: 'minomess', dataLoadProc: 'volume' },
];

/** A model as matched: trimmed, lower case, inner spaces collapsed ("Q  Caloric 5.5 " = "q caloric 5.5"). */
export const deviceModelKey = (model: string): string => model.trim().toLowerCase().replace(/\s+/g, ' ');

const BY_KEY = new Map(DEVICE_MODELS.map((m) => [deviceModelKey(m.name), m]));

/** The known model a device's model text names, if any. */
export const knownDeviceModel = (model: string | null | undefined): KnownDeviceModel | undefined =>
  model ? BY_KEY.get(deviceModelKey(model)) : undefined;

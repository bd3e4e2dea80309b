import { DEVICE_MODELS, DEVICE_TYPE, deviceModelKey, knownDeviceModel } from '@rodmenys/contract';

/**
 * The driver of each known model, by its matching key (`deviceModelKey`: lower case, single
 * spaces). The models themselves live in the contract's DEVICE_MODELS (contract/src/device-models.ts),
 * which the master-data form suggests; a new model is a line there.
 */
export const MODEL_DRIVERS: Readonly<Record<string, string>> = Object.fromEntries(
  DEVICE_MODELS.map((m) => [deviceModelKey(m.name), m.driver]),
);

/** Manufacturer code (M-Bus FLAG id) and device type → driver, when the model is not known. */
const MANUFACTURER_DRIVERS: Readonly<Record<string, Partial<Record<number, string>>>> = {
  QDS: {
    [DEVICE_TYPE.allocator]: 'qcaloric',
    [DEVICE_TYPE.heatMeter]: 'qheat',
    [DEVICE_TYPE.coldWaterMeter]: 'qwater',
    [DEVICE_TYPE.hotWaterMeter]: 'qwater',
  },
  KAM: {
    [DEVICE_TYPE.heatMeter]: 'kamheat',
    [DEVICE_TYPE.buildingHeatMeter]: 'kamheat',
    [DEVICE_TYPE.coldWaterMeter]: 'kamwater',
    [DEVICE_TYPE.hotWaterMeter]: 'kamwater',
  },
  SON: { [DEVICE_TYPE.allocator]: 'sontex868' },
  TCH: { [DEVICE_TYPE.allocator]: 'fhkvdataiv' },
  BMT: { [DEVICE_TYPE.heatMeter]: 'hydrocalm3' },
  DME: { [DEVICE_TYPE.coldWaterMeter]: 'hydrus', [DEVICE_TYPE.hotWaterMeter]: 'hydrus' },
  SAP: { [DEVICE_TYPE.coldWaterMeter]: 'izar', [DEVICE_TYPE.hotWaterMeter]: 'izar' },
  APA: { [DEVICE_TYPE.coldWaterMeter]: 'apator162', [DEVICE_TYPE.hotWaterMeter]: 'apator162' },
};

/** Every driver name a meter file can name (the opt-in wmbusmeters lane checks the real binary knows each). */
export const KNOWN_DRIVERS: ReadonlySet<string> = new Set([
  ...Object.values(MODEL_DRIVERS),
  ...Object.values(MANUFACTURER_DRIVERS).flatMap((byType) => Object.values(byType) as string[]),
]);

/**
 * The wmbusmeters driver of a meter file (docs/collectors.md, "Drivers"): the device's
 * model in master data (`device.model`) when it is one of the contract's DEVICE_MODELS
 * (contract/src/device-models.ts, where a new model is a line), else its key file's
 * manufacturer code and its device type, else `auto` (wmbusmeters then picks one, which
 * its authors advise against in production).
 */
export function driverFor(model: string | null, manufacturer: string | null, deviceTypeId: number): string {
  const byModel = knownDeviceModel(model)?.driver;
  if (byModel) return byModel;
  return (manufacturer && MANUFACTURER_DRIVERS[manufacturer.toUpperCase()]?.[deviceTypeId]) || 'auto';
}

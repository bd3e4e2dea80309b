import { DEVICE_TYPE } from '@rodmenys/contract';

/**
 * The wmbusmeters driver of a meter file (docs/collectors.md, "Drivers"): the device's
 * model in master data (`device.model`), else its key file's manufacturer code and its
 * device type, else `auto` (wmbusmeters then picks one, which its authors advise against
 * in production). A new model is a line in MODEL_DRIVERS; the driver names are those of
 * wmbusmeters' drivers/src folder.
 */
export const MODEL_DRIVERS: Readonly<Record<string, string>> = {
  'q caloric': 'qcaloric',
  'q caloric 5.5': 'qcaloric',
  'q heat 5.5': 'qheat',
  'q water 5.5': 'qwater',
  'sontex 868': 'sontex868',
  'fhkv data iii': 'fhkvdataiii',
  'fhkv data iv': 'fhkvdataiv',
  'brunata futura+': 'bfw240radio',
  'kaden hca': 'kaden',
  'lse hca': 'lse_08',
  hydroclima: 'hydroclimav2',
  'apator e-itn 30.51': 'apatoreitn',
  'multical 21': 'kamwater',
  'multical 302': 'kamheat',
  'multical 403': 'kamheat',
  'multical 603': 'kamheat',
  'sharky 775': 'sharky',
  'sharky 774': 'sharky774',
  'ultraheat t550': 'ultraheat',
  'compact v': 'compact5',
  'hydrocal m3': 'hydrocalm3',
  'supercal 5': 'supercal',
  'izar rc 868': 'izar',
  'apator at-wmbus-16-2': 'apator162',
  iperl: 'iperl',
  hydrus: 'hydrus',
  'mk radio 3': 'mkradio3',
  hydrodigit: 'hydrodigit',
  'waterstar m': 'waterstarm',
  istameter: 'istawater',
};

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

/** The driver for a meter file. */
export function driverFor(model: string | null, manufacturer: string | null, deviceTypeId: number): string {
  const byModel = model ? MODEL_DRIVERS[model.trim().toLowerCase().replace(/\s+/g, ' ')] : undefined;
  if (byModel) return byModel;
  return (manufacturer && MANUFACTURER_DRIVERS[manufacturer.toUpperCase()]?.[deviceTypeId]) || 'auto';
}

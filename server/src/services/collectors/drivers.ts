import { DEVICE_MODELS, deviceModelKey, knownDeviceModel } from '@rodmenys/contract';

/**
 * The driver of each known model, by its matching key (`deviceModelKey`: lower case, single
 * spaces). The models themselves live in the contract's DEVICE_MODELS (contract/src/device-models.ts),
 * which the master-data form suggests; a new model is a line there.
 */
export const MODEL_DRIVERS: Readonly<Record<string, string>> = Object.fromEntries(
  DEVICE_MODELS.map((m) => [deviceModelKey(m.name), m.driver]),
);

/** Every driver name a meter file can name (the opt-in wmbusmeters lane checks the real binary knows each). */
export const KNOWN_DRIVERS: ReadonlySet<string> = new Set(Object.values(MODEL_DRIVERS));

/**
 * The wmbusmeters driver of a meter file (docs/collectors.md, "Drivers"): the driver the device's
 * model in master data (`device.model`) names when it is one of the contract's DEVICE_MODELS
 * (contract/src/device-models.ts, where a new model is a line), else `auto`: wmbusmeters then
 * identifies the meter from its telegram. Never guessed from the key file's manufacturer code: one
 * manufacturer makes meters that need different drivers (Apator's NA-1 is not an AT-WMBUS-16-2),
 * and a wrong driver decodes no value while the meter still looks heard.
 */
export function driverFor(model: string | null): string {
  return knownDeviceModel(model)?.driver ?? 'auto';
}

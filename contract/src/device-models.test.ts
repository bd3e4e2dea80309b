import { describe, expect, it } from 'vitest';
import { DEVICE_MODELS, deviceModelKey, knownDeviceModel } from './device-models.js';

describe('DEVICE_MODELS', () => {
  it('names each model once, whatever its case and spacing, with a driver name wmbusmeters could have', () => {
    const keys = DEVICE_MODELS.map((m) => deviceModelKey(m.name));
    expect(new Set(keys).size).toBe(keys.length);
    for (const m of DEVICE_MODELS) expect(m.driver).toMatch(/^[a-z0-9_]+$/);
  });

  it('finds a model typed in any case, with stray spaces; nothing for blank or unknown text', () => {
    expect(knownDeviceModel('  q   CALORIC 5.5 ')?.name).toBe('Q caloric 5.5');
    expect(knownDeviceModel('Multical 21')?.driver).toBe('kamwater');
    expect(knownDeviceModel('Q caloric 5')).toBeUndefined();
    expect(knownDeviceModel('')).toBeUndefined();
    expect(knownDeviceModel(null)).toBeUndefined();
  });
});

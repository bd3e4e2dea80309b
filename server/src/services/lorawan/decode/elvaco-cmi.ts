/**
 * Elvaco CMi41xx: M-Bus-to-LoRaWAN modules on heat meters. On fPort 2 they send one
 * message-type byte, then the meter's M-Bus application-layer records. The register is the
 * current energy record (instantaneous, storage 0, tariff 0, subunit 0) in kWh; every other
 * record is kept as a value; error flags (0xFD17) other than 0 are an alarm (docs/lorawan.md).
 */

import { parseRecords } from './mbus/records.js';
import { isCurrent, namedValues } from './mbus/values.js';
import { type DecodeResult, undecoded } from './types.js';

export const CMI_FPORT = 2;

export function decodeElvacoCmi(fPort: number, payload: Uint8Array): DecodeResult {
  if (fPort !== CMI_FPORT) return undecoded('unknown-fport', `the CMi41xx sends on fPort ${CMI_FPORT}, not ${fPort}`);
  if (payload.length === 0) return undecoded('empty-payload');
  const parsed = parseRecords(payload, 1);
  if (parsed.error) return undecoded(parsed.error.code, parsed.error.detail);
  const { values, problems } = namedValues(parsed);

  const energy = parsed.records.find((r) => r.vif.kind === 'numeric' && r.vif.name === 'energy_kwh' && isCurrent(r));
  if (!energy) return undecoded('no-register', 'no current energy record');
  if (energy.value.kind === 'none') return undecoded('register-no-value', `energy record at byte ${energy.offset}`);
  if (energy.value.kind !== 'number') {
    const why = energy.value.kind === 'invalid' ? energy.value.reason : energy.value.kind;
    return undecoded('register-invalid', `energy record at byte ${energy.offset}: ${why}`);
  }

  const flags = parsed.records.find((r) => r.vif.name === 'error_flags' && isCurrent(r));
  const alarms = flags?.value.kind === 'number' && flags.value.value !== 0 ? ['ERROR_FLAGS'] : [];
  return {
    ok: true,
    register: { value: energy.value.value, unit: 'kWh' },
    values: { message_type: payload[0]!, ...values },
    alarms,
    problems,
  };
}

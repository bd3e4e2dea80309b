/**
 * Axioma Qalcosonic W1, "enhanced 24h" payload on fPort 100, 51 bytes:
 *   0      frame version (1)
 *   1–4    the meter's clock, UTC Unix seconds, little-endian
 *   5      status (alarms, below)
 *   6–9    log volume, litres, little-endian
 *   10–50  23 hourly deltas in litres, 14 bits each, packed least significant bit first,
 *          then 6 bits of history multiplier (0 in every payload we know)
 * The register is the current volume: the log volume plus the 23 deltas, at the meter's clock.
 * The payload gives the deltas no times of their own, so the history carries none
 * (docs/lorawan.md, "Decoding").
 */

import { type DecodeResult, type HistoryEntry, undecoded } from './types.js';

export const W1_FPORT = 100;
export const W1_LENGTH = 51;
const FRAME_VERSION = 1;
const DELTAS = 23;
const DELTA_BITS = 14;
const DELTAS_AT = 10;

const u32 = (b: Uint8Array, at: number) => b[at]! + b[at + 1]! * 0x100 + b[at + 2]! * 0x10000 + b[at + 3]! * 0x1000000;

/** `length` bits from bit `bit` of the bytes from DELTAS_AT, least significant first. */
function bits(b: Uint8Array, bit: number, length: number): number {
  let value = 0;
  for (let i = 0; i < length; i++) {
    const at = bit + i;
    if ((b[DELTAS_AT + (at >> 3)]! >> (at & 7)) & 1) value += 2 ** i;
  }
  return value;
}

/**
 * The status byte as Axioma's own W1 codec reads it: bits 2–4 are flags (low battery,
 * permanent error, temporary error; 0x10 alone is a dry pipe), bits 5–7 together are one
 * alarm code (0x20 leak, 0x60 backflow, 0xA0 burst, 0x80 low temperature), so they are matched
 * as patterns, not bit by bit. Names are the wmbusmeters flags the anomalies already know.
 */
export function w1Alarms(status: number): string[] {
  const alarms: string[] = [];
  const backflow = (status & 0x60) === 0x60;
  const burst = (status & 0xa0) === 0xa0;
  if (status & 0x04) alarms.push('LOW_BATTERY');
  if (status & 0x08) alarms.push('PERMANENT_ERROR');
  if (status & 0x10) alarms.push('TEMPORARY_ERROR');
  if (status === 0x10) alarms.push('DRY');
  if (status & 0x20 && !backflow && !burst) alarms.push('LEAK');
  if (backflow) alarms.push('BACKFLOW');
  if (burst) alarms.push('BURST');
  if (status & 0x80 && !burst) alarms.push('LOW_TEMPERATURE');
  return alarms;
}

export function decodeQalcosonicW1(fPort: number, payload: Uint8Array): DecodeResult {
  if (fPort !== W1_FPORT)
    return undecoded('unknown-fport', `the W1 enhanced payload comes on fPort ${W1_FPORT}, not ${fPort}`);
  if (payload.length !== W1_LENGTH) {
    return undecoded('wrong-length', `the W1 enhanced payload has ${W1_LENGTH} bytes, not ${payload.length}`);
  }
  if (payload[0] !== FRAME_VERSION) return undecoded('unsupported-frame-version', `frame version ${payload[0]}`);
  const multiplier = bits(payload, DELTAS * DELTA_BITS, 6);
  // A scaling of the deltas that no known meter sends: reading them as litres would be a guess.
  if (multiplier !== 0) return undecoded('history-multiplier', `history multiplier ${multiplier}`);

  const seconds = u32(payload, 1);
  const status = payload[5]!;
  const logLitres = u32(payload, 6);
  const history: HistoryEntry[] = [];
  let totalLitres = 0;
  for (let i = 0; i < DELTAS; i++) {
    const litres = bits(payload, i * DELTA_BITS, DELTA_BITS);
    totalLitres += litres;
    history.push({ index: i + 1, delta: litres / 1000, unit: 'm3' });
  }
  const meterTime = new Date(seconds * 1000);
  return {
    ok: true,
    register: { value: (logLitres + totalLitres) / 1000, unit: 'm3', meterTime },
    values: {
      frame_version: FRAME_VERSION,
      time_utc: meterTime.toISOString(),
      status,
      log_volume_m3: logLitres / 1000,
      history_total_m3: totalLitres / 1000,
      current_volume_m3: (logLitres + totalLitres) / 1000,
    },
    alarms: w1Alarms(status),
    history,
    problems: [],
  };
}

import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodeUplink } from './decoders.js';

/*
 * Every vector of lorawan-samples.jsonl (payloads of real meters, testdata/README-samples.md)
 * decodes to exactly its expected values, through the one entry the ingest uses.
 */

interface Sample {
  model: string;
  meter_type: string;
  f_port: number;
  payload_hex: string;
  expected: Record<string, unknown>;
}

const samples: Sample[] = readFileSync(new URL('./testdata/lorawan-samples.jsonl', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line));

const decoderOf = (s: Sample) => (s.model.startsWith('Qalcosonic W1') ? 'axioma-qalcosonic-w1' : 'elvaco-cmi41xx');
const decode = (s: Sample) =>
  decodeUplink({ decoder: decoderOf(s), fPort: s.f_port, payload: new Uint8Array(Buffer.from(s.payload_hex, 'hex')) });

describe('lorawan-samples.jsonl', () => {
  it('holds the vectors the tests below expect', () => {
    expect(samples.map((s) => [decoderOf(s), s.f_port])).toEqual([
      ['axioma-qalcosonic-w1', 100],
      ['elvaco-cmi41xx', 2],
      ['elvaco-cmi41xx', 2],
    ]);
  });

  for (const [i, s] of samples.filter((x) => x.meter_type === 'heat').entries()) {
    it(`CMi41xx vector ${i + 1}: every record's value, the energy as the register`, () => {
      const r = decode(s);
      if (!r.ok) throw new Error(`undecoded: ${r.reason} ${r.detail}`);
      expect(r.values).toEqual(s.expected);
      expect(r.register).toEqual({ value: s.expected.energy_kwh, unit: 'kWh' });
      expect(r.alarms).toEqual(s.expected.error_flags === 0 ? [] : ['ERROR_FLAGS']);
      expect(r.problems).toEqual([]);
      expect(r.history).toBeUndefined();
    });
  }

  it('W1: time, status, log volume, the 23 hourly deltas, their total and the current volume', () => {
    const s = samples.find((x) => x.meter_type === 'water')!;
    const e = s.expected;
    const r = decode(s);
    if (!r.ok) throw new Error(`undecoded: ${r.reason} ${r.detail}`);
    const meterTime = new Date(e.time_utc as string);
    expect(r.register).toEqual({ value: e.current_volume_m3, unit: 'm3', meterTime });
    expect(r.values).toEqual({
      frame_version: e.frame_version,
      time_utc: meterTime.toISOString(),
      status: e.status,
      log_volume_m3: e.log_volume_m3,
      history_total_m3: e.history_total_m3,
      current_volume_m3: e.current_volume_m3,
    });
    expect(r.history?.map((h) => h.delta)).toEqual(e.hourly_deltas_m3);
    // The payload gives the deltas no times (docs/lorawan.md): none is made up.
    expect(r.history?.every((h) => h.unit === 'm3' && h.time === undefined)).toBe(true);
    expect(r.history?.map((h) => h.index)).toEqual(Array.from({ length: 23 }, (_, i) => i + 1));
    expect(r.alarms).toEqual([]);
  });
});

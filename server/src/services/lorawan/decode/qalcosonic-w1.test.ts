import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeUplink } from './decoders.js';

/* The W1 enhanced 24h payload, built here bit by bit (14-bit deltas, least significant bit first). */

interface W1 {
  version?: number;
  seconds: number;
  status: number;
  logLitres: number;
  deltas: number[];
  multiplier?: number;
}

function w1Payload(p: W1): Uint8Array {
  const b = new Uint8Array(51);
  const view = new DataView(b.buffer);
  b[0] = p.version ?? 1;
  view.setUint32(1, p.seconds, true);
  b[5] = p.status;
  view.setUint32(6, p.logLitres, true);
  const fields = [...p.deltas.map((d) => [d, 14]), [p.multiplier ?? 0, 6]];
  let bit = 0;
  for (const [value, width] of fields) {
    for (let i = 0; i < width!; i++, bit++) if ((value! >> i) & 1) b[10 + (bit >> 3)]! |= 1 << (bit & 7);
  }
  return b;
}

const decode = (payload: Uint8Array, fPort = 100) => decodeUplink({ decoder: 'axioma-qalcosonic-w1', fPort, payload });
const quiet: W1 = { seconds: 1_788_390_574, status: 0, logLitres: 5938, deltas: Array(23).fill(0) };

describe('Qalcosonic W1', () => {
  it('random deltas, log volumes and times come back; the register is the log volume plus the deltas', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat(16383), { minLength: 23, maxLength: 23 }),
        fc.nat(2 ** 32 - 1),
        fc.integer({ min: 946_684_800, max: 2 ** 32 - 1 }),
        (deltas, logLitres, seconds) => {
          const r = decode(w1Payload({ seconds, status: 0, logLitres, deltas }));
          if (!r.ok) throw new Error(r.reason);
          const total = deltas.reduce((a, d) => a + d, 0);
          expect(r.history?.map((h) => h.delta)).toEqual(deltas.map((d) => d / 1000));
          expect(r.register).toEqual({
            value: (logLitres + total) / 1000,
            unit: 'm3',
            meterTime: new Date(seconds * 1000),
          });
          expect(r.values.log_volume_m3).toBe(logLitres / 1000);
          expect(r.values.history_total_m3).toBe(total / 1000);
        },
      ),
      { seed: 20261207, numRuns: 300 },
    );
  });

  it.each([
    [0x00, []],
    [0x04, ['LOW_BATTERY']],
    [0x08, ['PERMANENT_ERROR']],
    [0x10, ['TEMPORARY_ERROR', 'DRY']],
    [0x14, ['LOW_BATTERY', 'TEMPORARY_ERROR']],
    [0x20, ['LEAK']],
    [0x60, ['BACKFLOW']],
    [0xa0, ['BURST']],
    [0x80, ['LOW_TEMPERATURE']],
    [0xe0, ['BACKFLOW', 'BURST']],
    [0x24, ['LOW_BATTERY', 'LEAK']],
  ])('status 0x%s: alarms %j', (status, alarms) => {
    expect(decode(w1Payload({ ...quiet, status }))).toMatchObject({ ok: true, alarms, values: { status } });
  });

  it('a history multiplier other than 0 is undecoded: the deltas would be a guess', () => {
    expect(decode(w1Payload({ ...quiet, multiplier: 1 }))).toEqual({
      ok: false,
      reason: 'history-multiplier',
      detail: 'history multiplier 1',
    });
  });

  it('wrong lengths, frame version 2, another fPort: undecoded with their reasons', () => {
    const good = w1Payload(quiet);
    expect(decode(good)).toMatchObject({ ok: true });
    expect(decode(good.slice(0, 50))).toMatchObject({ ok: false, reason: 'wrong-length' });
    expect(decode(new Uint8Array([...good, 0]))).toMatchObject({ ok: false, reason: 'wrong-length' });
    expect(decode(w1Payload({ ...quiet, version: 2 }))).toEqual({
      ok: false,
      reason: 'unsupported-frame-version',
      detail: 'frame version 2',
    });
    expect(decode(good, 101)).toMatchObject({ ok: false, reason: 'unknown-fport' });
  });
});

import { describe, expect, it } from 'vitest';
import { hex } from '../../../test/mbus-encoder.js';
import { BUILT_IN_DECODERS, decodeUplink, MAX_PAYLOAD_BYTES } from './decoders.js';
import { UNDECODED_REASONS } from './types.js';

/* Hostile payloads at the one entry: each an undecoded uplink with its stable reason, never a throw. */

const W1 = 'axioma-qalcosonic-w1';
const CMI = 'elvaco-cmi41xx';
const w1Sample = hex(
  '01aeac986a003217000000000000000000008003800054000e4005100048000240020000200000000000000000000000000000',
);

describe('decodeUplink: hostile input', () => {
  it.each([
    ['0 bytes (W1)', W1, 100, new Uint8Array(0), 'empty-payload'],
    ['0 bytes (CMi)', CMI, 2, new Uint8Array(0), 'empty-payload'],
    ['255 bytes (W1)', W1, 100, new Uint8Array(255).fill(1), 'payload-too-long'],
    ['255 bytes (CMi)', CMI, 2, new Uint8Array(255).fill(0x2f), 'payload-too-long'],
    ['a W1 of 50 bytes', W1, 100, w1Sample.slice(0, 50), 'wrong-length'],
    ['frame version 2', W1, 100, new Uint8Array([2, ...w1Sample.slice(1)]), 'unsupported-frame-version'],
    ['an unknown fPort (W1)', W1, 3, w1Sample, 'unknown-fport'],
    ['an unknown fPort (CMi)', CMI, 100, hex('00 04 06 01000000'), 'unknown-fport'],
    ['fPort 0 (MAC commands)', CMI, 0, hex('00 04 06 01000000'), 'unknown-fport'],
    ['an unknown decoder', 'acme-9000', 2, hex('00'), 'unknown-decoder'],
    ['a decoder named like an object member', '__proto__', 2, hex('00'), 'unknown-decoder'],
    ['records past the end', CMI, 2, hex('00 04 06 010000'), 'mbus-truncated'],
    ['BCD with hex digits in the register', CMI, 2, hex('00 0c 06 0000000a'), 'register-invalid'],
    ['a reserved DIF', CMI, 2, hex('00 04 06 01000000 5f'), 'mbus-reserved-dif'],
  ])('%s', (_, decoder, fPort, payload, reason) => {
    const r = decodeUplink({ decoder, fPort, payload });
    expect(r).toMatchObject({ ok: false, reason });
    expect(UNDECODED_REASONS).toContain(reason);
  });

  it(`10,000 records: more than LoRaWAN carries (${MAX_PAYLOAD_BYTES} bytes), refused at once`, () => {
    const payload = new Uint8Array(1 + 40_000);
    for (let i = 0; i < 10_000; i++) payload.set([0x02, 0x13, 0x01, 0x00], 1 + 4 * i);
    expect(decodeUplink({ decoder: CMI, fPort: 2, payload })).toMatchObject({ ok: false, reason: 'payload-too-long' });
  });

  it('242 bytes are decoded; 243 are not', () => {
    const payload = new Uint8Array(243).fill(0x2f);
    payload.set(hex('00 04 06 07000000'));
    expect(decodeUplink({ decoder: CMI, fPort: 2, payload: payload.slice(0, 242) })).toMatchObject({
      ok: true,
      register: { value: 7 },
    });
    expect(decodeUplink({ decoder: CMI, fPort: 2, payload })).toMatchObject({ ok: false, reason: 'payload-too-long' });
  });

  it('the list of built-in decoders names what the device form offers', () => {
    expect(BUILT_IN_DECODERS.map((d) => [d.id, d.meterType, d.fPorts, d.registerUnit])).toEqual([
      [CMI, 'heat', [2], 'kWh'],
      [W1, 'water', [100], 'm3'],
    ]);
  });
});

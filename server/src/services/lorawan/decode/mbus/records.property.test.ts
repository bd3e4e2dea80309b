import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type EncData, type EncRecord, encodeRecords } from '../../../../test/mbus-encoder.js';
import { decodeUplink } from '../decoders.js';
import { parseRecords } from './records.js';

/*
 * Random records, encoded by the test's own encoder (src/test/mbus-encoder.ts), decode back to
 * what was encoded: function, storage number, tariff, subunit, the quantity and its value in
 * the quantity's unit. Random bytes never make the parser or the decoders throw.
 */

/** VIF groups with the power of ten each code n gives in the decoded unit, written from the standard. */
const VIFS: { base: number[]; count: number; name: string; exponent: (n: number) => number }[] = [
  { base: [0x00], count: 8, name: 'energy_kwh', exponent: (n) => n - 6 }, // Wh × 10^(n-3)
  { base: [0x10], count: 8, name: 'volume_m3', exponent: (n) => n - 6 },
  { base: [0x28], count: 8, name: 'power_kw', exponent: (n) => n - 6 },
  { base: [0x38], count: 8, name: 'flow_m3h', exponent: (n) => n - 6 },
  { base: [0x58], count: 4, name: 'flow_temperature_c', exponent: (n) => n - 3 },
  { base: [0x5c], count: 4, name: 'return_temperature_c', exponent: (n) => n - 3 },
  { base: [0x60], count: 4, name: 'temperature_difference_k', exponent: (n) => n - 3 },
  { base: [0xfb, 0x00], count: 2, name: 'energy_kwh', exponent: (n) => n + 2 }, // MWh × 10^(n-1)
  { base: [0xfb, 0x10], count: 2, name: 'volume_m3', exponent: (n) => n + 2 },
];

const FUNCTIONS = ['instantaneous', 'maximum', 'minimum', 'error'];

interface Case {
  record: EncRecord;
  name: string;
  exponent: number;
}

const vifArb = fc
  .record({
    group: fc.constantFrom(...VIFS),
    n: fc.nat(7),
    // A multiplicative correction VIFE 0x70–0x77: × 10^(k-6).
    correction: fc.option(fc.nat(7)),
  })
  .map(({ group, n, correction }) => {
    const code = n % group.count;
    const vif = [...group.base.slice(0, -1), group.base.at(-1)! + code];
    let exponent = group.exponent(code);
    if (correction !== null) {
      vif[vif.length - 1]! |= 0x80;
      vif.push(0x70 + correction);
      exponent += correction - 6;
    }
    return { vif, name: group.name, exponent };
  });

const intArb = fc.constantFrom(1, 2, 3, 4, 6, 8).chain((length) => {
  const half = 2n ** BigInt(8 * length - 1);
  const limit = length === 8 ? BigInt(Number.MAX_SAFE_INTEGER) : half - 1n;
  // The most negative value is "no value": left out here, checked by itself in records.test.ts.
  return fc
    .bigInt({ min: -limit, max: limit })
    .map((value) => ({ coding: 'int', length, value }) as EncData & { coding: 'int' });
});

const bcdArb = fc
  .constantFrom(1, 2, 3, 4, 6)
  .chain((length) =>
    fc
      .oneof(
        fc.integer({ min: 0, max: 10 ** (2 * length) - 1 }),
        fc.integer({ min: -(10 ** (2 * length - 1) - 1), max: -1 }),
      )
      .map((value) => ({ coding: 'bcd', length, value }) as EncData & { coding: 'bcd' }),
  );

const realArb = fc
  .float({ noNaN: true, noDefaultInfinity: true, min: Math.fround(-1e30), max: Math.fround(1e30) })
  .map((value) => ({ coding: 'real', value }) as EncData & { coding: 'real' });

const dataArb = fc.oneof(intArb, bcdArb, realArb, fc.constant({ coding: 'none' } as EncData));

const caseArb: fc.Arbitrary<Case> = fc
  .record({
    function: fc.constantFrom(0, 1, 2, 3) as fc.Arbitrary<0 | 1 | 2 | 3>,
    storage: fc.oneof(fc.constant(0), fc.nat(15), fc.integer({ min: 0, max: 2 ** 41 - 1 })),
    tariff: fc.oneof(fc.constant(0), fc.nat(3), fc.integer({ min: 0, max: 2 ** 20 - 1 })),
    subunit: fc.oneof(fc.constant(0), fc.nat(1), fc.nat(1023)),
    vif: vifArb,
    data: dataArb,
  })
  .map(({ vif, ...r }) => ({ record: { ...r, vif: vif.vif }, name: vif.name, exponent: vif.exponent }));

/** The value the decoder should give: the raw number × 10^exponent, computed here on its own. */
function expected(data: EncData, exponent: number): number | undefined {
  if (data.coding === 'none' || data.coding === 'raw') return undefined;
  const raw = data.coding === 'int' ? Number(data.value) : data.coding === 'bcd' ? data.value : Math.fround(data.value);
  const v = exponent < 0 ? raw / 10 ** -exponent : raw * 10 ** exponent;
  return v === 0 ? 0 : v;
}

describe('M-Bus records: encoded and decoded back', () => {
  it('every field of random records survives the round trip', () => {
    let values = 0;
    fc.assert(
      fc.property(fc.array(caseArb, { minLength: 1, maxLength: 12 }), (cases) => {
        const parsed = parseRecords(encodeRecords(cases.map((c) => c.record)));
        expect(parsed.error).toBeUndefined();
        expect(parsed.records).toHaveLength(cases.length);
        cases.forEach((c, i) => {
          const r = parsed.records[i]!;
          expect(r.function).toBe(FUNCTIONS[c.record.function ?? 0]);
          expect([r.storage, r.tariff, r.subunit]).toEqual([c.record.storage, c.record.tariff, c.record.subunit]);
          expect(r.vif.name).toBe(c.name);
          expect(r.otherVifes).toEqual([]);
          const want = expected(c.record.data, c.exponent);
          if (want === undefined) expect(r.value).toEqual({ kind: 'none' });
          else if (c.record.data.coding === 'real') {
            values++;
            if (r.value.kind !== 'number') throw new Error(`not a number: ${JSON.stringify(r.value)}`);
            // A float32 is read back as its shortest decimal, then scaled: unscaled, it is the same float32.
            const unscaled = c.exponent < 0 ? r.value.value * 10 ** -c.exponent : r.value.value / 10 ** c.exponent;
            // (-0 is read as 0: + 0 makes them one.)
            expect(Math.fround(unscaled) + 0).toBe(Math.fround((c.record.data as { value: number }).value) + 0);
          } else {
            values++;
            expect(r.value).toEqual({ kind: 'number', value: want });
          }
        });
      }),
      { seed: 20261207, numRuns: 300, endOnFailure: true },
    );
    // Not vacuous: most random records carry a value.
    expect(values).toBeGreaterThan(1000);
  });

  it('random bytes never make the parser or a decoder throw', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 300 }),
        fc.constantFrom('elvaco-cmi41xx', 'axioma-qalcosonic-w1', 'nobody'),
        fc.constantFrom(0, 1, 2, 100, 223, 255),
        (bytes, decoder, fPort) => {
          const parsed = parseRecords(bytes);
          expect(parsed.records.length).toBeLessThanOrEqual(bytes.length);
          const r = decodeUplink({ decoder, fPort, payload: bytes });
          expect(typeof r.ok).toBe('boolean');
          // The W1's 51 bytes at random also go through the whole decoder.
          decodeUplink({ decoder: 'axioma-qalcosonic-w1', fPort: 100, payload: bytes.slice(0, 51) });
          decodeUplink({ decoder: 'elvaco-cmi41xx', fPort: 2, payload: bytes });
        },
      ),
      { seed: 20261207, numRuns: 2000 },
    );
  });
});

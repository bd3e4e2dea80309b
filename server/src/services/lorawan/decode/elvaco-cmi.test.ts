import { describe, expect, it } from 'vitest';
import { type EncRecord, encodeRecords, hex } from '../../../test/mbus-encoder.js';
import { decodeUplink } from './decoders.js';

/* The CMi41xx decoder: which record is the register, what is kept, what is refused. */

const cmi = (records: EncRecord[], messageType = 0) =>
  decodeUplink({
    decoder: 'elvaco-cmi41xx',
    fPort: 2,
    payload: new Uint8Array([messageType, ...encodeRecords(records)]),
  });

const energy = (value: bigint, more: Partial<EncRecord> = {}): EncRecord => ({
  vif: [0x06],
  data: { coding: 'int', length: 4, value },
  ...more,
});
const flags = (value: bigint, more: Partial<EncRecord> = {}): EncRecord => ({
  vif: [0xfd, 0x17],
  data: { coding: 'int', length: 2, value },
  ...more,
});

describe('Elvaco CMi41xx', () => {
  it('the register is the current energy record, not a maximum, stored, tariff or subunit one before it', () => {
    const r = cmi([
      energy(1n, { function: 1 }),
      energy(2n, { storage: 1 }),
      energy(3n, { tariff: 1 }),
      energy(4n, { subunit: 1 }),
      energy(5n, { vif: [0x86, 0x22] }), // with a combinable VIFE
      energy(9818n),
    ]);
    expect(r).toMatchObject({ ok: true, register: { value: 9818, unit: 'kWh' } });
    if (r.ok)
      expect(r.values).toEqual({
        message_type: 0,
        energy_kwh_max: 1,
        energy_kwh_storage1: 2,
        energy_kwh_tariff1: 3,
        energy_kwh_subunit1: 4,
        energy_kwh_vife22: 5,
        energy_kwh: 9818,
      });
  });

  it.each([
    ['Wh', [0x03], 9_818_000n, 9818],
    ['MWh (0xFB00, 0.1 MWh)', [0xfb, 0x00], 98n, 9800],
    ['GJ (0xFB09)', [0xfb, 0x09], 12n, 3333.33333333333],
    ['MJ (primary 0x0E)', [0x0e], 36n, 10],
  ])('energy in %s becomes kWh', (_, vif, value, kwh) => {
    expect(cmi([{ vif, data: { coding: 'int', length: 4, value } }])).toMatchObject({
      ok: true,
      register: { value: kwh, unit: 'kWh' },
    });
  });

  it('error flags other than 0 are an alarm; stored flags are not', () => {
    expect(cmi([energy(1n), flags(4n)])).toMatchObject({
      ok: true,
      alarms: ['ERROR_FLAGS'],
      values: { error_flags: 4 },
    });
    expect(cmi([energy(1n), flags(0n)])).toMatchObject({ ok: true, alarms: [] });
    expect(cmi([energy(1n), flags(4n, { storage: 1 })])).toMatchObject({ ok: true, alarms: [] });
  });

  it('no current energy record: no register, whatever else there is', () => {
    expect(cmi([{ vif: [0x14], data: { coding: 'int', length: 4, value: 5n } }])).toEqual({
      ok: false,
      reason: 'no-register',
      detail: 'no current energy record',
    });
    expect(cmi([energy(7n, { storage: 1 })])).toMatchObject({ ok: false, reason: 'no-register' });
    expect(decodeUplink({ decoder: 'elvaco-cmi41xx', fPort: 2, payload: hex('05') })).toMatchObject({
      ok: false,
      reason: 'no-register',
    });
  });

  it('the energy record with "no value" or BCD hex digits: undecoded, never guessed', () => {
    expect(cmi([energy(-(2n ** 31n))])).toMatchObject({ ok: false, reason: 'register-no-value' });
    const payload = hex('00 0c 06 5267a102');
    expect(decodeUplink({ decoder: 'elvaco-cmi41xx', fPort: 2, payload })).toEqual({
      ok: false,
      reason: 'register-invalid',
      detail: 'energy record at byte 1: bcd-hex-digit',
    });
  });

  it('BCD hex digits in another record: the register stands, the record is a problem', () => {
    const r = decodeUplink({ decoder: 'elvaco-cmi41xx', fPort: 2, payload: hex('00 0c 06 52676102 0a 5a 3b06') });
    expect(r).toMatchObject({
      ok: true,
      register: { value: 2616752 },
      problems: [{ field: 'flow_temperature_c', reason: 'bcd-hex-digit', offset: 7 }],
    });
    if (r.ok) expect(r.values.flow_temperature_c).toBeUndefined();
  });

  it('records running past the end: undecoded with the parser s reason', () => {
    const full = hex('0504065a2600000414f0140a00022d0b00023b2600025a7b02025e7c010c787135496904fd1700000800');
    expect(decodeUplink({ decoder: 'elvaco-cmi41xx', fPort: 2, payload: full })).toMatchObject({ ok: true });
    expect(decodeUplink({ decoder: 'elvaco-cmi41xx', fPort: 2, payload: full.slice(0, -1) })).toEqual({
      ok: false,
      reason: 'mbus-truncated',
      detail: 'record at byte 35: data (4 bytes) runs past the end (3 left)',
    });
  });

  it('as many records as 242 bytes hold decode (119 empty ones and the energy)', () => {
    const records = Array.from({ length: 119 }, (): EncRecord => ({ vif: [0x5a], data: { coding: 'none' } }));
    const r = cmi([...records, { vif: [0x06], data: { coding: 'bcd', length: 1, value: 7 } }]);
    expect(r).toMatchObject({ ok: true, register: { value: 7 } });
    expect(encodeRecords(records).length + 4).toBe(242);
  });
});

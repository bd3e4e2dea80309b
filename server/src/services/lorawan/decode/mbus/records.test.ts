import { describe, expect, it } from 'vitest';
import { encodeRecord, hex } from '../../../../test/mbus-encoder.js';
import { MAX_RECORDS, type MbusRecord, parseRecords } from './records.js';
import { namedValues } from './values.js';

/* The M-Bus record parser, record by record (EN 13757-3). Bytes are written out by hand. */

/** The one record of `text`, failing on a parse error. */
function one(text: string): MbusRecord {
  const parsed = parseRecords(hex(text));
  expect(parsed.error).toBeUndefined();
  expect(parsed.records).toHaveLength(1);
  return parsed.records[0]!;
}
const decoded = (text: string) => one(text).value;
const num = (value: number) => ({ kind: 'number', value });

describe('data field: each length and form', () => {
  // VIF 0x13: volume in litres (10⁻³ m³), so the raw integer is read back ×1000.
  it.each([
    ['8-bit', '01 13 7f', 0.127],
    ['8-bit negative', '01 13 ff', -0.001],
    ['16-bit', '02 13 3412', 4.66],
    ['16-bit negative', '02 13 feff', -0.002],
    ['24-bit', '03 13 563412', 1193.046],
    ['32-bit', '04 13 78563412', 305419.896],
    ['32-bit negative', '04 13 ffffffff', -0.001],
    ['48-bit', '06 13 010000000100', 4294967.297],
    ['64-bit', '07 13 0100000000001000', 4503599627370.497],
    ['64-bit negative', '07 13 feffffffffffffff', -0.002],
  ])('%s integer', (_, bytes, value) => expect(decoded(bytes)).toEqual(num(value)));

  it.each([
    ['8-bit', '01 13 80'],
    ['16-bit', '02 13 0080'],
    ['24-bit', '03 13 000080'],
    ['32-bit', '04 13 00000080'],
    ['48-bit', '06 13 000000000080'],
    ['64-bit', '07 13 0000000000000080'],
  ])('%s: the most negative value is "no value" (OMS)', (_, bytes) => {
    expect(decoded(bytes)).toEqual({ kind: 'none' });
    expect(namedValues(parseRecords(hex(bytes))).values).toEqual({});
  });

  it('a 64-bit integer past 2^53 is refused, not rounded', () => {
    expect(decoded('07 13 ffffffffffffff7f')).toEqual({ kind: 'invalid', reason: 'integer-out-of-range' });
  });

  it.each([
    ['2-digit', '09 13 42', 0.042],
    ['4-digit', '0a 13 3412', 1.234],
    ['6-digit', '0b 13 563412', 123.456],
    ['8-digit', '0c 13 78563412', 12345.678],
    ['12-digit', '0e 13 121110090807', 70809101.112],
    ['2-digit negative', '09 13 f5', -0.005],
    ['4-digit negative', '0a 13 34f2', -0.234],
    ['8-digit negative', '0c 13 785634f2', -2345.678],
    ['12-digit negative', '0e 13 1211100908f7', -70809101.112],
  ])('%s BCD', (_, bytes, value) => expect(decoded(bytes)).toEqual(num(value)));

  it.each([
    ['a hex digit', '0a 13 3a12'],
    ['a hex digit in the top nibble', '0a 13 34e2'],
    ['F below the top nibble', '0a 13 3f12'],
    ['F twice at the top', '0a 13 34ff'],
  ])('BCD with %s makes the record invalid, and the next record still decodes', (_, bytes) => {
    const parsed = parseRecords(hex(`${bytes} 02 5b 1500`));
    expect(parsed.error).toBeUndefined();
    expect(parsed.records[0]!.value).toEqual({ kind: 'invalid', reason: 'bcd-hex-digit' });
    expect(parsed.records[1]!.value).toEqual(num(0.021 * 1000));
    expect(namedValues(parsed).problems).toEqual([{ field: 'volume_m3', reason: 'bcd-hex-digit', offset: 0 }]);
  });

  it('32-bit real, read as the float it is', () => {
    expect(decoded('05 5b 0000fe42')).toEqual(num(127)); // flow temperature, 1 °C
    expect(decoded('05 5a cdcccc3d')).toEqual(num(0.01)); // 0.1f × 0.1 °C
    expect(decoded('05 5b 0000c07f')).toEqual({ kind: 'invalid', reason: 'real-not-finite' });
    // A Node Buffer (what base64 decoding gives) sits at an offset in a shared pool.
    const pooled = Buffer.from('ff055b0000fe42', 'hex').subarray(1);
    expect(pooled.byteOffset).toBeGreaterThan(0);
    expect(parseRecords(pooled).records[0]!.value).toEqual(num(127));
  });

  it('no data and selection for readout have no value', () => {
    expect(decoded('00 13')).toEqual({ kind: 'none' });
    expect(decoded('08 13')).toEqual({ kind: 'none' });
  });

  it('variable length: text last character first, BCD, negative BCD, binary', () => {
    expect(decoded('0d 7c 03 6e6170 03 434241')).toMatchObject({ kind: 'text', value: 'ABC' });
    expect(one('0d 7c 03 6e6170 03 434241').plainTextUnit).toBe('pan');
    expect(decoded('0d fd0c 03 434241')).toEqual({ kind: 'text', value: 'ABC' });
    expect(decoded('0d 13 c2 3412')).toEqual(num(1.234));
    expect(decoded('0d 13 d2 3412')).toEqual(num(-1.234));
    expect(decoded('0d 13 e3 010200')).toEqual(num(0.513));
    expect(decoded('0d 13 c0')).toEqual({ kind: 'none' });
  });

  it('a reserved LVAR stops the walk: its length is unknown', () => {
    const parsed = parseRecords(hex('02 13 0100 0d 13 f7 00'));
    expect(parsed.records).toHaveLength(1);
    expect(parsed.error).toMatchObject({ code: 'mbus-reserved-lvar', offset: 4 });
  });
});

describe('VIF: units and scales', () => {
  it.each([
    // VIF, data (int16 = 1000 unless said), name, value in the name's unit
    ['03', 'energy_kwh', 1], // Wh
    ['06', 'energy_kwh', 1000], // kWh
    ['07', 'energy_kwh', 10000], // 10 kWh
    ['0e', 'energy_kwh', 277.777777777778], // MJ: 1 GJ
    ['0f', 'energy_kwh', 2777.77777777778],
    ['10', 'volume_m3', 0.001], // cm³
    ['13', 'volume_m3', 1], // litres
    ['16', 'volume_m3', 1000],
    ['1b', 'mass_kg', 1000],
    ['20', 'on_time_s', 1000],
    ['22', 'on_time_s', 3_600_000],
    ['27', 'operating_time_s', 86_400_000],
    ['2b', 'power_kw', 1], // W
    ['2e', 'power_kw', 1000],
    ['36', 'power_kw', 277.777777777778], // 1000 MJ/h
    ['3b', 'flow_m3h', 1],
    ['3e', 'flow_m3h', 1000],
    ['43', 'flow_m3h', 6], // 10⁻⁴ m³/min
    ['4f', 'flow_m3h', 3600 * 1000 * 1e-2],
    ['53', 'mass_flow_kgh', 1000],
    ['58', 'flow_temperature_c', 1],
    ['5a', 'flow_temperature_c', 100],
    ['5b', 'flow_temperature_c', 1000],
    ['5e', 'return_temperature_c', 100],
    ['61', 'temperature_difference_k', 10],
    ['66', 'external_temperature_c', 100],
    ['69', 'pressure_bar', 10],
    ['6e', 'hca_units', 1000],
    ['fb00', 'energy_kwh', 100000], // 0.1 MWh
    ['fb01', 'energy_kwh', 1000000], // MWh
    ['fb08', 'energy_kwh', 27777.7777777778], // 0.1 GJ
    ['fb09', 'energy_kwh', 277777.777777778], // GJ
    ['fb10', 'volume_m3', 100000],
    ['fb19', 'mass_kg', 1e9],
    ['fb29', 'power_kw', 1000000],
    ['fb31', 'power_kw', 277777.777777778], // GJ/h
    ['fd3a', 'dimensionless', 1000],
    ['fd46', 'voltage_v', 1], // mV
    ['fd59', 'current_a', 1], // mA
  ])('VIF %s: %s', (vif, name, value) => {
    const r = one(`02 ${vif} e803`);
    expect(r.vif.name).toBe(name);
    expect(r.value).toEqual(num(value));
  });

  it('dates and times: types G, F and I; invalid marked, no date in other codings', () => {
    // 2026-09-02: day 2, month 9, year 26 = 0b0011010 (3 bits by the day, 4 by the month).
    expect(decoded('02 6c 4239')).toEqual({ kind: 'text', value: '2026-09-02' });
    expect(decoded('04 6d 1e174239')).toEqual({ kind: 'text', value: '2026-09-02T23:30' });
    expect(decoded('06 6d 221e17423900')).toEqual({ kind: 'text', value: '2026-09-02T23:30:34' });
    expect(decoded('04 6d 9e174239')).toEqual({ kind: 'none' }); // IV bit: the meter's time is invalid
    expect(decoded('02 6c ffff')).toEqual({ kind: 'none' });
    expect(decoded('02 6c 5f39')).toEqual({ kind: 'invalid', reason: 'date-invalid' }); // 31 September
    expect(decoded('0a 6c 4239')).toEqual({ kind: 'invalid', reason: 'date-coding' });
    expect(decoded('03 6c 423900')).toEqual({ kind: 'invalid', reason: 'date-coding' });
  });

  it('identification: fabrication number in BCD keeps its digits, in binary as a number; enhanced id', () => {
    expect(one('0c 78 71354969').value).toEqual({ kind: 'text', value: '69493571' });
    expect(one('0c 78 01000000').value).toEqual({ kind: 'text', value: '00000001' });
    expect(one('04 78 ffffffff').value).toEqual({ kind: 'text', value: '4294967295' });
    expect(one('0c 79 78563412').vif.name).toBe('enhanced_identification');
    expect(one('0c 78 785634f2').value).toEqual({ kind: 'invalid', reason: 'bcd-negative-identification' });
  });

  it('error flags are a bit field: unsigned, every value meaningful', () => {
    expect(one('04 fd17 00000800').value).toEqual(num(524288));
    expect(one('04 fd17 00000080').value).toEqual(num(2147483648));
    expect(one('01 fd17 80').vif.name).toBe('error_flags');
    expect(one('01 fd17 80').value).toEqual(num(128));
  });

  it('unknown VIFs keep their bytes, and the records after them decode', () => {
    const parsed = parseRecords(hex('02 6f abcd 04 fd3f 01020304 01 fb7e 05 02 fb4a 0100 02 13 0a00'));
    expect(parsed.error).toBeUndefined();
    expect(parsed.records.map((r) => [r.vif.kind, r.vif.name, r.value])).toEqual([
      ['unknown', 'vif_6f', { kind: 'hex', value: 'abcd' }],
      ['unknown', 'vif_fd3f', { kind: 'hex', value: '01020304' }],
      ['unknown', 'vif_fb7e', { kind: 'hex', value: '05' }],
      ['unknown', 'vif_fb4a', { kind: 'hex', value: '0100' }],
      ['numeric', 'volume_m3', num(0.01)],
    ]);
  });

  it('manufacturer-specific VIF 0xFF with its VIFEs: kept raw', () => {
    const r = one('02 ff8101 3412');
    expect(r.vif.kind).toBe('manufacturer');
    expect(r.vifBytes).toEqual([0xff, 0x81, 0x01]);
    expect(r.value).toEqual({ kind: 'hex', value: '3412' });
  });
});

describe('DIFE chains: storage number, tariff, subunit; the function field', () => {
  it.each([
    ['DIF bit 6', '42 13 0100', { storage: 1, tariff: 0, subunit: 0 }, 'volume_m3_storage1'],
    ['one DIFE', '82 01 13 0100', { storage: 2, tariff: 0, subunit: 0 }, 'volume_m3_storage2'],
    ['DIF bit and DIFE', 'c2 0f 13 0100', { storage: 31, tariff: 0, subunit: 0 }, 'volume_m3_storage31'],
    ['tariff', '82 10 13 0100', { storage: 0, tariff: 1, subunit: 0 }, 'volume_m3_tariff1'],
    ['subunit', '82 40 13 0100', { storage: 0, tariff: 0, subunit: 1 }, 'volume_m3_subunit1'],
    [
      'two DIFEs',
      '82 a1 52 13 0100',
      { storage: 2 + 2 * 32, tariff: 2 + 4, subunit: 1 * 2 },
      'volume_m3_storage66_tariff6_subunit2',
    ],
    ['a chain of zeros', '82 80 80 00 13 0100', { storage: 0, tariff: 0, subunit: 0 }, 'volume_m3'],
  ])('%s', (_, bytes, fields, name) => {
    const parsed = parseRecords(hex(bytes));
    expect(parsed.records[0]).toMatchObject(fields);
    expect(namedValues(parsed).names).toEqual([name]);
  });

  it('ten DIFEs carry a 41-bit storage number; an eleventh is refused', () => {
    const r = one(`82 ${'8f'.repeat(9)} 0f 13 0100`);
    expect(r.storage).toBe(2 ** 41 - 2);
    expect(parseRecords(hex(`82 ${'80'.repeat(10)} 00 13 0100`)).error?.code).toBe('mbus-too-many-difes');
  });

  it.each([
    ['12', 'maximum', 'flow_temperature_c_max'],
    ['22', 'minimum', 'flow_temperature_c_min'],
    ['32', 'error', 'flow_temperature_c_error'],
  ])('function field DIF %s: %s', (dif, fn, name) => {
    const parsed = parseRecords(hex(`${dif} 5a 7b02`));
    expect(parsed.records[0]!.function).toBe(fn);
    expect(namedValues(parsed).values).toEqual({ [name]: 63.5 });
  });

  it('two records of the same name are told apart', () => {
    expect(namedValues(parseRecords(hex('02 5a 7b02 02 5a 7c02'))).values).toEqual({
      flow_temperature_c: 63.5,
      flow_temperature_c_2: 63.6,
    });
  });
});

describe('VIFE chains', () => {
  it('multiplicative corrections are applied; other VIFEs are kept and name the value', () => {
    expect(one('02 93 75 e803').value).toEqual(num(0.1)); // litres × 10⁻¹
    expect(one('02 93 7d e803').value).toEqual(num(1000)); // litres × 10³
    const perHour = parseRecords(hex('02 93 22 0a00')); // a combinable VIFE (not a correction)
    expect(perHour.records[0]!.otherVifes).toEqual([0x22]);
    expect(namedValues(perHour).values).toEqual({ volume_m3_vife22: 0.01 });
  });

  it('after 0xFD, further VIFEs chain on', () => {
    const r = one('04 fd97 75 00000800');
    expect(r.vif.name).toBe('error_flags');
    expect(r.vifBytes).toEqual([0xfd, 0x97, 0x75]);
  });

  it('a combinable VIFE 0x7F makes the rest of the chain the manufacturer s', () => {
    expect(one('02 93 ff 75 0100').otherVifes).toEqual([0x7f]);
  });

  it('an eleventh VIFE is refused', () => {
    expect(parseRecords(hex(`02 93 ${'a2'.repeat(9)} 22 0100`)).error).toBeUndefined();
    expect(parseRecords(hex(`02 93 ${'a2'.repeat(10)} 22 0100`)).error?.code).toBe('mbus-too-many-vifes');
  });
});

describe('the walk', () => {
  it.each([
    ['a DIF alone', '02 13 0100 82', 'DIFE'],
    ['a DIFE chain cut', '02 13 0100 82 81', 'DIFE'],
    ['no VIF', '02 13 0100 02', 'VIF'],
    ['a VIFE missing', '02 13 0100 02 fd', 'VIFE'],
    ['data cut short', '02 13 0100 04 13 0100', 'data (4 bytes)'],
    ['no LVAR', '02 13 0100 0d 13', 'LVAR'],
    ['variable data cut short', '02 13 0100 0d 13 05 4142', 'data (5 bytes)'],
  ])('a record running past the end (%s) is a typed error; the records before it stay', (_, bytes, what) => {
    const parsed = parseRecords(hex(bytes));
    expect(parsed.records.map((r) => r.value)).toEqual([num(0.001)]);
    expect(parsed.error).toMatchObject({ code: 'mbus-truncated', offset: 4 });
    expect(parsed.error?.detail).toContain(what);
  });

  it('idle filler is skipped; 0x0F and 0x1F take the rest as manufacturer data', () => {
    const parsed = parseRecords(hex('2f 2f 02 13 0100 2f 0f 0102ff'));
    expect(parsed.records).toHaveLength(1);
    expect(parsed.manufacturerData).toEqual({ offset: 7, hex: '0102ff', moreRecordsFollow: false });
    expect(namedValues(parsed).values).toEqual({ volume_m3: 0.001, manufacturer_data: '0102ff' });
    expect(parseRecords(hex('1f')).manufacturerData).toEqual({ offset: 0, hex: '', moreRecordsFollow: true });
  });

  it('a reserved special DIF stops the walk', () => {
    expect(parseRecords(hex('02 13 0100 3f 13 01')).error).toMatchObject({ code: 'mbus-reserved-dif', offset: 4 });
  });

  it(`10,000 records: the walk stops after ${MAX_RECORDS} with a typed error, in one pass`, () => {
    const bytes = new Uint8Array(
      Array.from({ length: 10_000 }, () =>
        encodeRecord({ vif: [0x13], data: { coding: 'int', length: 2, value: 1n } }),
      ).flat(),
    );
    const started = performance.now();
    const parsed = parseRecords(bytes);
    // A bound far above the milliseconds it takes, to catch a walk that is no longer linear.
    expect(performance.now() - started).toBeLessThan(2000);
    expect(parsed.records).toHaveLength(MAX_RECORDS);
    expect(parsed.error).toMatchObject({ code: 'mbus-too-many-records', offset: 4 * MAX_RECORDS });
    expect(parseRecords(bytes, 0, 10_000).records).toHaveLength(10_000);
  });
});

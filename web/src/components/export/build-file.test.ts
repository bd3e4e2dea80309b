// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { buildCsv, CSV_SEMICOLON, toExcelDate } from './build-file';
import { testTable as table } from './test-table';

describe('toExcelDate', () => {
  it('keeps the wall-clock digits of the provider zone', () => {
    expect(toExcelDate('2026-03-29T04:05:06+03:00')?.toISOString()).toBe('2026-03-29T04:05:06.000Z');
    expect(toExcelDate('2026-03-01')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(toExcelDate('2026-03-29 04:05')?.toISOString()).toBe('2026-03-29T04:05:00.000Z');
    expect(toExcelDate('2026-12-31T23:59:59.999+02:00')?.toISOString()).toBe('2026-12-31T23:59:59.000Z');
    expect(toExcelDate('not a date')).toBeNull();
    expect(toExcelDate('2026-0x-01')).toBeNull();
    expect(toExcelDate('2026-03-29T04:xx')).toBeNull();
  });
});

describe('buildCsv', () => {
  it('English: commas and a decimal point, quotes what needs quoting, dates as text', () => {
    expect(buildCsv(table)).toBe(
      '\uFEFFKodas,Vertė,Diena,Laikas,Pastabos\r\n' +
        '"A-1, ""x""; <&> ąčęėįšųūž",12.3456,2026-03-01,2026-03-29 04:05,bad\u0001char\uFFFE\r\n' +
        'B-2,,,,\r\n' +
        'B-2,0,,2026-10-25 03:30, padded \r\n',
    );
  });

  it('Lithuanian: semicolons and a decimal comma, quoting on the semicolon', () => {
    const lines = buildCsv(table, CSV_SEMICOLON).split('\r\n');
    expect(lines[0]).toBe('\uFEFFKodas;Vertė;Diena;Laikas;Pastabos');
    expect(lines[1]).toBe('"A-1, ""x""; <&> ąčęėįšųūž";12,3456;2026-03-01;2026-03-29 04:05;bad\u0001char\uFFFE');
    expect(buildCsv({ ...table, rows: [['a,b', 1.5, null, null, null]] }, CSV_SEMICOLON)).toBe(
      '\uFEFFKodas;Vertė;Diena;Laikas;Pastabos\r\na,b;1,5;;;\r\n',
    );
  });
});

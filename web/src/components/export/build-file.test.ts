// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { buildCsv, CSV_SEMICOLON, toExcelDate } from './build-file';
import type { ExportTable } from './types';

const table: ExportTable = {
  sheetName: 'Įrenginiai',
  columns: [
    { key: 'code', title: 'Kodas', type: 'text' },
    { key: 'value', title: 'Vertė', type: 'number', numFmt: '0.000' },
    { key: 'day', title: 'Diena', type: 'date' },
    { key: 'at', title: 'Laikas', type: 'datetime' },
  ],
  rows: [
    ['A-1, "x"; y', 12.3456, '2026-03-01', '2026-03-29T04:05:00+03:00'],
    ['B-2', null, null, null],
  ],
};

describe('toExcelDate', () => {
  it('keeps the wall-clock digits of the provider zone', () => {
    expect(toExcelDate('2026-03-29T04:05:06+03:00')?.toISOString()).toBe('2026-03-29T04:05:06.000Z');
    expect(toExcelDate('2026-03-01')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(toExcelDate('not a date')).toBeNull();
  });
});

describe('buildCsv', () => {
  it('English: commas and a decimal point, quotes what needs quoting, dates as text', () => {
    expect(buildCsv(table)).toBe(
      '\uFEFFKodas,Vertė,Diena,Laikas\r\n"A-1, ""x""; y",12.3456,2026-03-01,2026-03-29 04:05\r\nB-2,,,\r\n',
    );
  });

  it('Lithuanian: semicolons and a decimal comma, quoting on the semicolon', () => {
    expect(buildCsv(table, CSV_SEMICOLON)).toBe(
      '\uFEFFKodas;Vertė;Diena;Laikas\r\n"A-1, ""x""; y";12,3456;2026-03-01;2026-03-29 04:05\r\nB-2;;;\r\n',
    );
  });
});

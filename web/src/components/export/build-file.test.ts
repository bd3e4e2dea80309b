// @vitest-environment node
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildCsv, buildXlsx, toExcelDate } from './build-file';
import type { ExportInput } from './types';

const input: ExportInput = {
  sheetName: 'Įrenginiai',
  columns: [
    { key: 'code', title: 'Kodas', type: 'text' },
    { key: 'value', title: 'Vertė', type: 'number', numFmt: '0.000' },
    { key: 'day', title: 'Diena', type: 'date' },
    { key: 'at', title: 'Laikas', type: 'datetime' },
  ],
  rows: [
    { code: 'A-1, "x"', value: 12.3456, day: '2026-03-01', at: '2026-03-29T04:05:00+03:00' },
    { code: 'B-2', value: null, day: null, at: null },
  ],
};

describe('toExcelDate', () => {
  it('keeps the wall-clock digits of the provider zone', () => {
    expect(toExcelDate('2026-03-29T04:05:06+03:00')?.toISOString()).toBe('2026-03-29T04:05:06.000Z');
    expect(toExcelDate('2026-03-01')?.toISOString()).toBe('2026-03-01T00:00:00.000Z');
    expect(toExcelDate('not a date')).toBeNull();
  });
});

describe('buildXlsx', () => {
  it('writes typed cells under a header row', async () => {
    const buffer = await buildXlsx(ExcelJS, input);
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(buffer);
    const sheet = workbook.getWorksheet('Įrenginiai')!;
    expect(sheet.getRow(1).values).toEqual([undefined, 'Kodas', 'Vertė', 'Diena', 'Laikas']);
    const row = sheet.getRow(2);
    expect(row.getCell(1).value).toBe('A-1, "x"');
    expect(row.getCell(2).value).toBe(12.3456);
    expect(row.getCell(2).numFmt).toBe('0.000');
    expect(row.getCell(3).value).toEqual(new Date('2026-03-01T00:00:00Z'));
    expect(row.getCell(3).numFmt).toBe('yyyy-mm-dd');
    expect(row.getCell(4).value).toEqual(new Date('2026-03-29T04:05:00Z'));
    expect(sheet.getRow(3).getCell(2).value).toBeNull();
    expect(sheet.rowCount).toBe(3);
  });
});

describe('buildCsv', () => {
  it('quotes what needs quoting and writes dates as text', () => {
    expect(buildCsv(input)).toBe(
      '\uFEFFKodas,Vertė,Diena,Laikas\r\n"A-1, ""x""",12.3456,2026-03-01,2026-03-29 04:05\r\nB-2,,,\r\n',
    );
  });
});

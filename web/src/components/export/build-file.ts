import type ExcelJS from 'exceljs';
import type { ExportColumn, ExportInput } from './types';

const DEFAULT_FORMAT: Partial<Record<ExportColumn['type'], string>> = {
  date: 'yyyy-mm-dd',
  datetime: 'yyyy-mm-dd hh:mm',
};

/**
 * The server's times carry the provider's offset (2026-03-29T04:00:00+03:00). Excel dates have
 * no zone, so the cell holds the provider's wall-clock time: the digits as written.
 */
export function toExcelDate(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
  return new Date(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s));
}

function cellValue(column: ExportColumn, value: unknown): string | number | Date | null {
  if (value === null || value === undefined || value === '') return null;
  switch (column.type) {
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? n : null;
    }
    case 'date':
    case 'datetime':
      return typeof value === 'string' ? toExcelDate(value) : value instanceof Date ? value : null;
    default:
      return String(value);
  }
}

const widthOf = (c: ExportColumn) =>
  c.width ??
  Math.max(c.title.length + 2, c.type === 'datetime' ? 17 : c.type === 'date' ? 12 : c.type === 'number' ? 12 : 14);

/** An .xlsx workbook with typed cells: one sheet, bold frozen header row, formats per column. */
export async function buildXlsx(excel: typeof ExcelJS, input: ExportInput): Promise<ArrayBuffer> {
  const workbook = new excel.Workbook();
  workbook.created = new Date();
  const sheet = workbook.addWorksheet(input.sheetName || 'Sheet1', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = input.columns.map((c) => ({
    header: c.title,
    key: c.key,
    width: widthOf(c),
    style: (c.numFmt ?? DEFAULT_FORMAT[c.type]) ? { numFmt: c.numFmt ?? DEFAULT_FORMAT[c.type] } : {},
  }));
  sheet.getRow(1).font = { bold: true };
  const { columns } = input;
  sheet.addRows(input.rows.map((row) => columns.map((c) => cellValue(c, row[c.key]))));
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(columns.length, 1) } };
  // exceljs answers a Buffer (a Uint8Array view) in Node and in its browser build: hand back
  // a plain ArrayBuffer of exactly the file's bytes, which a worker can transfer.
  const out = (await workbook.xlsx.writeBuffer()) as ArrayBuffer | Uint8Array;
  const bytes = out instanceof Uint8Array ? out : new Uint8Array(out);
  return bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
    ? (bytes.buffer as ArrayBuffer)
    : (bytes.slice().buffer as ArrayBuffer);
}

function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}
const pad = (n: number) => String(n).padStart(2, '0');
function csvValue(column: ExportColumn, value: unknown): string {
  const v = cellValue(column, value);
  if (v === null) return '';
  if (v instanceof Date) {
    const day = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
    return column.type === 'date' ? day : `${day} ${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}`;
  }
  return csvField(String(v));
}

/** RFC 4180 CSV (comma, CRLF) with a UTF-8 byte order mark so that Excel reads the letters right. */
export function buildCsv(input: ExportInput): string {
  const lines = [input.columns.map((c) => csvField(c.title)).join(',')];
  for (const row of input.rows) lines.push(input.columns.map((c) => csvValue(c, row[c.key])).join(','));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

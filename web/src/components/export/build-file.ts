import { csvField } from '@rodmenys/contract';
import type { CsvOptions, ExportColumn, ExportTable } from './types';

/** The number in s[from, to) when those are all digits, else NaN. */
function digits(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const d = s.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return Number.NaN;
    n = n * 10 + d;
  }
  return n;
}

/**
 * The server's times carry the provider's offset (2026-03-29T04:00:00+03:00). Spreadsheet dates
 * have no zone, so the cell holds the provider's wall-clock time: the digits as written, here as
 * milliseconds whose UTC fields are those digits (NaN when the text is no date). Read by position,
 * not by a regular expression: an export of 50,000 rows reads 100,000 of them.
 */
function wallClockMs(value: string): number {
  if (value.length < 10 || value[4] !== '-' || value[7] !== '-') return Number.NaN;
  const separator = value[10];
  const timed = value.length >= 16 && (separator === 'T' || separator === ' ') && value[13] === ':';
  const seconds = timed && value.length >= 19 && value[16] === ':';
  return Date.UTC(
    digits(value, 0, 4),
    digits(value, 5, 7) - 1,
    digits(value, 8, 10),
    timed ? digits(value, 11, 13) : 0,
    timed ? digits(value, 14, 16) : 0,
    seconds ? digits(value, 17, 19) : 0,
  );
}

/** wallClockMs as a Date whose UTC fields are the provider's wall-clock time, or null. */
export function toExcelDate(value: string): Date | null {
  const ms = wallClockMs(value);
  return Number.isFinite(ms) ? new Date(ms) : null;
}

/** A number cell's value: a finite number (numeric text read as one), or null (empty). */
export function numberOf(value: unknown): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** A date cell's value as wallClockMs gives it (a Date's own time), NaN when it is no date. */
export function dateMs(value: unknown): number {
  return typeof value === 'string' ? wallClockMs(value) : value instanceof Date ? value.getTime() : Number.NaN;
}

/** A cell as the file holds it: a finite number, a wall-clock date, text, or null (empty). */
function cellValue(column: ExportColumn, value: unknown): string | number | Date | null {
  switch (column.type) {
    case 'number':
      return numberOf(value);
    case 'date':
    case 'datetime': {
      const ms = dateMs(value);
      return Number.isFinite(ms) ? new Date(ms) : null;
    }
    default:
      return value === null || value === undefined || value === '' ? null : String(value);
  }
}

export const CSV_COMMA: CsvOptions = { separator: ',', decimalComma: false };
/** Lithuanian Excel's list separator is `;` and its decimal separator a comma. */
export const CSV_SEMICOLON: CsvOptions = { separator: ';', decimalComma: true };

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * RFC 4180 CSV (CRLF, fields quoted when they hold the separator, a quote or a line break) with
 * a UTF-8 byte order mark so that Excel reads the letters right. Dates as YYYY-MM-DD (HH:mm). Text
 * that starts like a formula gets a leading `'` (csvField); numbers stay numbers.
 */
export function buildCsv(table: ExportTable, options: CsvOptions = CSV_COMMA): string {
  const { separator, decimalComma } = options;
  // Text a spreadsheet would run as a formula is neutralised (contract csvField, docs/operations.md).
  const field = (text: string) => csvField(text, separator);
  const csvValue = (column: ExportColumn, value: unknown): string => {
    const v = cellValue(column, value);
    if (v === null) return '';
    if (v instanceof Date) {
      const day = `${v.getUTCFullYear()}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
      return column.type === 'date' ? day : `${day} ${pad(v.getUTCHours())}:${pad(v.getUTCMinutes())}`;
    }
    if (typeof v === 'number') return decimalComma ? String(v).replace('.', ',') : String(v);
    return field(v);
  };
  const { columns } = table;
  const lines = [columns.map((c) => field(c.title)).join(separator)];
  for (const row of table.rows) lines.push(columns.map((c, i) => csvValue(c, row[i])).join(separator));
  return `\uFEFF${lines.join('\r\n')}\r\n`;
}

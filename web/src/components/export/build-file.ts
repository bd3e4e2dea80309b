import type { CsvOptions, ExportColumn, ExportTable } from './types';

/**
 * The server's times carry the provider's offset (2026-03-29T04:00:00+03:00). Spreadsheet dates
 * have no zone, so the cell holds the provider's wall-clock time: the digits as written, here as
 * a Date whose UTC fields are those digits.
 */
export function toExcelDate(value: string): Date | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(value);
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0'] = match;
  return new Date(Date.UTC(+y!, +mo! - 1, +d!, +h, +mi, +s));
}

/** A cell as the file holds it: a finite number, a wall-clock date, text, or null (empty). */
export function cellValue(column: ExportColumn, value: unknown): string | number | Date | null {
  if (value === null || value === undefined || value === '') return null;
  switch (column.type) {
    case 'number': {
      const n = typeof value === 'number' ? value : Number(value);
      return Number.isFinite(n) ? n : null;
    }
    case 'date':
    case 'datetime': {
      const date = typeof value === 'string' ? toExcelDate(value) : value instanceof Date ? value : null;
      return date && Number.isFinite(date.getTime()) ? date : null;
    }
    default:
      return String(value);
  }
}

export const CSV_COMMA: CsvOptions = { separator: ',', decimalComma: false };
/** Lithuanian Excel's list separator is `;` and its decimal separator a comma. */
export const CSV_SEMICOLON: CsvOptions = { separator: ';', decimalComma: true };

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * RFC 4180 CSV (CRLF, fields quoted when they hold the separator, a quote or a line break) with
 * a UTF-8 byte order mark so that Excel reads the letters right. Dates as YYYY-MM-DD (HH:mm).
 */
export function buildCsv(table: ExportTable, options: CsvOptions = CSV_COMMA): string {
  const { separator, decimalComma } = options;
  const special = separator === ';' ? /[";\r\n]/ : /[",\r\n]/;
  const field = (text: string) => (special.test(text) ? `"${text.replaceAll('"', '""')}"` : text);
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

import { csvField } from '@rodmenys/contract';

/**
 * One line of CSV for Excel (`;` separated, quoted where needed, formulas neutralised as in toCsv), with its
 * CRLF: for files written line by line.
 */
export const csvLine = (row: readonly (string | number | boolean | null)[]): string =>
  `${row.map((v) => csvField(typeof v === 'boolean' ? String(v) : v, ';')).join(';')}\r\n`;

/**
 * CSV for Excel: `;` separated, quoted where needed, UTF-8 with a BOM; text that a spreadsheet
 * would run as a formula is neutralised (contract csvField, docs/operations.md).
 */
export function toCsv(rows: (string | number | null)[][]): Buffer {
  return Buffer.from(`\uFEFF${rows.map((r) => r.map((v) => csvField(v, ';')).join(';')).join('\r\n')}\r\n`, 'utf8');
}

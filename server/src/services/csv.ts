/** One CSV cell for Excel: quoted where needed. */
const cell = (v: string | number | boolean | null) => {
  const s = v === null ? '' : String(v);
  return /[;"\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** One line of CSV for Excel (`;` separated, quoted where needed), with its CRLF: for files written line by line. */
export const csvLine = (row: readonly (string | number | boolean | null)[]): string => `${row.map(cell).join(';')}\r\n`;

/** CSV for Excel: `;` separated, quoted where needed, UTF-8 with a BOM. */
export function toCsv(rows: (string | number | null)[][]): Buffer {
  return Buffer.from(`\uFEFF${rows.map(csvLine).join('')}`, 'utf8');
}

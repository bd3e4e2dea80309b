/** CSV for Excel: `;` separated, quoted where needed, UTF-8 with a BOM. */
export function toCsv(rows: (string | number | null)[][]): Buffer {
  const cell = (v: string | number | null) => {
    const s = v === null ? '' : String(v);
    return /[;"\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return Buffer.from(`\uFEFF${rows.map((r) => r.map(cell).join(';')).join('\r\n')}\r\n`, 'utf8');
}

/** A Markdown table: readable in a terminal and pasteable into docs as is. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  // Text columns left, columns that look numeric right.
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => /^[-\d.,x ×%<]*$/.test(r[i] ?? '')));
  const cell = (text: string, i: number) => (numeric[i] ? text.padStart(widths[i]!) : text.padEnd(widths[i]!));
  const line = (cells: readonly string[]) => `| ${header.map((_, i) => cell(cells[i] ?? '', i)).join(' | ')} |`;
  const rule = `| ${widths.map((w, i) => (numeric[i] ? `${'-'.repeat(w - 1)}:` : '-'.repeat(w))).join(' | ')} |`;
  return [line(header), rule, ...rows.map(line)].join('\n');
}

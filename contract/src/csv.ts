/**
 * CSV cells that a spreadsheet cannot run (docs/operations.md, "CSV files and formulas"), after
 * OWASP's CSV-injection guidance: text starting with `=`, `+`, `-`, `@`, a tab or a carriage
 * return opens as a formula in Excel and LibreOffice, so it gets a leading `'` and is quoted.
 * Numbers stay numbers: a number cell (a JavaScript number) and a text that is a plain decimal
 * number (`-12.5`, `-12,5`, `+3`) are written as they are, because a spreadsheet reads them as a
 * value and a plain number cannot call a function or a link; everything else that starts with a
 * trigger (`-1+2`, `=HYPERLINK(…)`, `-2e3`) is neutralised. Used by every CSV writer, server and web.
 */
const TRIGGER = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(?:[.,]\d+)?$/;

/** A text cell's content made inert: `'` before a formula trigger, unchanged otherwise. */
export function neutraliseCsvText(text: string): string {
  return TRIGGER.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/**
 * One CSV field: null as empty, a number as written, text neutralised and then quoted (RFC 4180)
 * when it holds the separator, a quote, a line break, or was neutralised.
 */
export function csvField(value: string | number | null | undefined, separator: ',' | ';'): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  const safe = neutraliseCsvText(value);
  const quote = safe !== value || safe.includes(separator) || /["\r\n]/.test(safe);
  return quote ? `"${safe.replaceAll('"', '""')}"` : safe;
}

import type { Cell } from '../register-file.js';

/** A cell as trimmed text; null when empty. An Excel date cell gives its day. */
export function text(cell: Cell | undefined): string | null {
  if (cell === null || cell === undefined) return null;
  if (cell instanceof Date) return localDateTime(cell).slice(0, 10);
  const s = String(cell).trim();
  return s === '' ? null : s;
}

/** `1 234,5` and `1234.5` → 1234.5; undefined when not a number. */
export function number(cell: Cell | undefined): number | undefined {
  if (typeof cell === 'number') return Number.isFinite(cell) ? cell : undefined;
  const s = text(cell)
    ?.replace(/[\s\u00a0]/g, '')
    .replace(',', '.');
  if (!s || !/^[-+]?\d+(\.\d+)?$/.test(s)) return undefined;
  return Number(s);
}

/** An Excel date (its UTC fields are the wall-clock time) as 'YYYY-MM-DD HH:MM:SS'. */
const localDateTime = (d: Date) => d.toISOString().slice(0, 19).replace('T', ' ');

/**
 * 2026-03-01, 2026.03.01, 01.03.2026, with an optional time; an Excel date cell or serial.
 * Returns the wall-clock time 'YYYY-MM-DD HH:MM:SS' (the provider zone's), undefined when not a date.
 */
export function dateTime(cell: Cell | undefined): string | undefined {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? undefined : localDateTime(cell);
  if (typeof cell === 'number') {
    if (cell < 1 || cell > 200_000) return undefined;
    return localDateTime(new Date(Math.round((cell - 25569) * 86_400_000)));
  }
  const s = text(cell);
  if (!s) return undefined;
  const m =
    s.match(/^(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/) ??
    s
      .match(/^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/)
      ?.map((v, i, a) => (i === 1 ? a[3]! : i === 3 ? a[1]! : v));
  if (!m) return undefined;
  const [y, mo, d, h, mi, se] = [m[1], m[2], m[3], m[4] ?? '0', m[5] ?? '0', m[6] ?? '0'].map(Number) as number[];
  const date = new Date(Date.UTC(y!, mo! - 1, d!, h!, mi!, se!));
  if (date.getUTCMonth() !== mo! - 1 || date.getUTCDate() !== d! || h! > 23 || mi! > 59 || se! > 59) return undefined;
  if (y! < 1900 || y! > 2200) return undefined;
  return localDateTime(date);
}

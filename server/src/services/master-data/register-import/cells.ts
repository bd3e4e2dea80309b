import { parseWrittenTime, wallClockAt, wallClockText } from '../../time.js';
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
const localDateTime = (d: Date) => wallClockText(wallClockAt(d.getTime()));

/**
 * 2026-03-01, 2026.03.01, 01.03.2026, with an optional time (services/time.ts); an Excel date
 * cell or serial. Returns the wall-clock time 'YYYY-MM-DD HH:MM:SS' (the provider zone's),
 * undefined when not a date.
 */
export function dateTime(cell: Cell | undefined): string | undefined {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? undefined : localDateTime(cell);
  if (typeof cell === 'number') {
    if (cell < 1 || cell > 200_000) return undefined;
    return localDateTime(new Date(Math.round((cell - 25569) * 86_400_000)));
  }
  const s = text(cell);
  const t = s ? parseWrittenTime(s) : undefined;
  return t && wallClockText(t);
}

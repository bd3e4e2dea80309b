import { type ParsedTime, parseTime } from '../time.js';

/**
 * Exact decimals and ISO times as collectors send them (times read by services/time.ts). Values stay text all the
 * way into PostgreSQL's numeric and timestamptz (no float drift); what these
 * functions accept, PostgreSQL is sure to accept too.
 */

const DECIMAL = /^[+-]?\d{1,15}(?:[.,]\d{1,12})?$/;

/** A decimal written with a point or a comma ("12,5"), as numeric text; undefined when it is not one. */
export function parseDecimal(text: string): string | undefined {
  const t = text.trim();
  return DECIMAL.test(t) ? t.replace(',', '.') : undefined;
}

/** A JSON number (or numeric string) as numeric text; undefined when it is neither. */
export function jsonDecimal(v: unknown): string | undefined {
  if (typeof v === 'number') {
    // String() gives the shortest text that reads back as the same double: the decimal the sender wrote.
    return Number.isFinite(v) && Math.abs(v) < 1e15 ? String(v) : undefined;
  }
  return typeof v === 'string' ? parseDecimal(v) : undefined;
}

const DAY_MS = 86_400_000;

/** A reception time: a real time from 2000 up to a day ahead of `now` (a collector's clock may run a little fast). */
export function parseReceptionTime(raw: string, now: Date): ParsedTime | string {
  const t = parseTime(raw);
  if (!t) return `is not an ISO 8601 time: "${raw.slice(0, 40)}"`;
  if (t.year < 2000 || t.approxMs > now.getTime() + DAY_MS) return `is not a plausible reception time: "${t.text}"`;
  return t;
}

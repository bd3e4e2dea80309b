/**
 * Exact decimals and ISO times as collectors send them. Values stay text all the
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

const TIME =
  /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?)?(?:\s?(Z|[+-](\d{2})(?::?\d{2})?))?$/i;

export interface ParsedTime {
  /** The text to cast to timestamptz: without a zone it is read in the session's (provider's) zone. */
  text: string;
  year: number;
  /** The day part, YYYY-MM-DD. */
  day: string;
  /** Milliseconds since the epoch, reading a time without a zone as UTC (hours off at most). */
  approxMs: number;
}

/** An ISO 8601 date or date-time, with or without a zone; undefined when it is not a real one. */
export function parseTime(raw: string): ParsedTime | undefined {
  const text = raw.trim();
  if (PLAIN_TIME.test(text)) return plainTime(text);
  const m = TIME.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h = '0', mi = '0', s = '0', zone, offsetHours = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (hour > 23 || minute > 59 || second > 59 || Number(offsetHours) > 14) return undefined;
  const offsetMs = zone && zone !== 'Z' && zone !== 'z' ? Number(zone.slice(0, 3)) * 3_600_000 : 0;
  const approxMs = Date.UTC(year, month - 1, day, hour, minute, second) - offsetMs;
  // The text starts with YYYY-MM-DD (the pattern is anchored).
  return { text, year, day: text.slice(0, 10), approxMs };
}

/** The usual shapes, UTC or without a zone: read digit by digit, without the captures of TIME (millions of CSV lines). */
const PLAIN_TIME = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?Z?$/;

/** Two digits at `at` as a number. */
const twoDigits = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

function plainTime(text: string): ParsedTime | undefined {
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  const month = twoDigits(text, 5);
  const day = twoDigits(text, 8);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  const hasTime = text.length > 11;
  const hour = hasTime ? twoDigits(text, 11) : 0;
  const minute = hasTime ? twoDigits(text, 14) : 0;
  const second = text.length > 17 && text[16] === ':' ? twoDigits(text, 17) : 0;
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  return { text, year, day: text.slice(0, 10), approxMs: Date.UTC(year, month - 1, day, hour, minute, second) };
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a month (1–12) of the Gregorian calendar. */
function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!;
}

const DAY_MS = 86_400_000;

/** A reception time: a real time from 2000 up to a day ahead of `now` (a collector's clock may run a little fast). */
export function parseReceptionTime(raw: string, now: Date): ParsedTime | string {
  const t = parseTime(raw);
  if (!t) return `is not an ISO 8601 time: "${raw.slice(0, 40)}"`;
  if (t.year < 2000 || t.approxMs > now.getTime() + DAY_MS) return `is not a plausible reception time: "${t.text}"`;
  return t;
}

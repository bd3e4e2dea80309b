/**
 * The one time parser of the server: every date or time read from text (collectors'
 * telegrams, CSV lines, register cells, the database's own ISO text) is checked here
 * against the Gregorian calendar, field by field. A time without a zone is a wall-clock
 * time of the provider's zone (docs/domain.md §5): PostgreSQL reads it in the session's.
 */

import { FIRST_YEAR, LAST_YEAR, MAX_RANGE_DAYS } from '@rodmenys/contract';
import { badRequest } from '../errors.js';

/** The fields of a wall-clock time (month 1–12). */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const MONTH_DAYS = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days in a month (1–12) of the Gregorian calendar. */
export function daysInMonth(year: number, month: number): number {
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  return month === 2 && leap ? 29 : MONTH_DAYS[month - 1]!;
}

/** Whether the fields name a real day and time of day (no 24:00, no leap second). */
export function isRealTime(t: WallClock): boolean {
  return (
    t.month >= 1 &&
    t.month <= 12 &&
    t.day >= 1 &&
    t.day <= daysInMonth(t.year, t.month) &&
    t.hour <= 23 &&
    t.minute <= 59 &&
    t.second <= 59
  );
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** 'YYYY-MM-DD HH:MM:SS'. */
export const wallClockText = (t: WallClock) =>
  `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;

/** Milliseconds since the epoch reading the wall clock as UTC (how Excel stores its dates). */
export const wallClockMs = (t: WallClock) => Date.UTC(t.year, t.month - 1, t.day, t.hour, t.minute, t.second);

/** The wall clock of milliseconds read as UTC (an Excel date cell). */
export function wallClockAt(ms: number): WallClock {
  const d = new Date(ms);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

const fields = (y: string, mo: string, d: string, h = '0', mi = '0', s = '0'): WallClock => ({
  year: Number(y),
  month: Number(mo),
  day: Number(d),
  hour: Number(h),
  minute: Number(mi),
  second: Number(s),
});

/* ISO 8601, as collectors and CSV files send it. */

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
  const [, y, mo, d, h, mi, s, zone, offsetHours = '0'] = m;
  const t = fields(y!, mo!, d!, h, mi, s);
  if (!isRealTime(t) || Number(offsetHours) > 14) return undefined;
  const offsetMs = zone && zone !== 'Z' && zone !== 'z' ? Number(zone.slice(0, 3)) * 3_600_000 : 0;
  // The text starts with YYYY-MM-DD (the pattern is anchored).
  return { text, year: t.year, day: text.slice(0, 10), approxMs: wallClockMs(t) - offsetMs };
}

/** The usual shapes, UTC or without a zone: read digit by digit, without the captures of TIME (millions of CSV lines). */
const PLAIN_TIME = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?)?Z?$/;

/** Two digits at `at` as a number. */
const twoDigits = (text: string, at: number) => (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;

function plainTime(text: string): ParsedTime | undefined {
  const hasTime = text.length > 11;
  const t: WallClock = {
    year: twoDigits(text, 0) * 100 + twoDigits(text, 2),
    month: twoDigits(text, 5),
    day: twoDigits(text, 8),
    hour: hasTime ? twoDigits(text, 11) : 0,
    minute: hasTime ? twoDigits(text, 14) : 0,
    second: text.length > 17 && text[16] === ':' ? twoDigits(text, 17) : 0,
  };
  if (!isRealTime(t)) return undefined;
  return { text, year: t.year, day: text.slice(0, 10), approxMs: wallClockMs(t) };
}

/* Dates as people write them in a spreadsheet (the register import). */

const YEAR_FIRST = /^(\d{4})[-./](\d{1,2})[-./](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const DAY_FIRST = /^(\d{1,2})\.(\d{1,2})\.(\d{4})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * 2026-03-01, 2026.03.01 or 01.03.2026, with an optional time (HH:MM or HH:MM:SS), in the
 * years 1900–2200; undefined when it is not a real date and time.
 */
export function parseWrittenTime(text: string): WallClock | undefined {
  const y = YEAR_FIRST.exec(text);
  const d = y ? null : DAY_FIRST.exec(text);
  const t = y
    ? fields(y[1]!, y[2]!, y[3]!, y[4], y[5], y[6])
    : d
      ? fields(d[3]!, d[2]!, d[1]!, d[4], d[5], d[6])
      : undefined;
  if (!t || !isRealTime(t) || t.year < 1900 || t.year > 2200) return undefined;
  return t;
}

/* The database's own text (`iso()`, migration 002). */

const ISO_WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/;

/** The wall-clock fields at the start of an ISO 8601 time ('2026-03-29T04:00:00+03:00' → 04:00:00); undefined otherwise. */
export function wallClockOf(iso: string): WallClock | undefined {
  const m = ISO_WALL_CLOCK.exec(iso);
  if (!m) return undefined;
  const t = fields(m[1]!, m[2]!, m[3]!, m[4], m[5], m[6]);
  return isRealTime(t) ? t : undefined;
}

/* Days a request names (the contract's Day and DayParam). */

/** A period of whole days: 'YYYY-MM-DD' (a trailing time, as the old client sends, is ignored). */
export interface DayRange {
  from: string;
  till: string;
}

/** The day of a request's `field` ('YYYY-MM-DD', a trailing time ignored): 400 unless a real day of FIRST_YEAR–LAST_YEAR. */
export function parseDay(value: string, field: string): string {
  const day = value.slice(0, 10);
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  const t = m && fields(m[1]!, m[2]!, m[3]!);
  if (!t || !isRealTime(t) || t.year < 1) throw badRequest('notCalendarDay', { value: day }, field);
  if (t.year < FIRST_YEAR || t.year > LAST_YEAR) throw badRequest('yearOutOfRange', {}, field);
  return day;
}

/** Validates a day range: real calendar days, from <= till, at most MAX_RANGE_DAYS long. */
export function parseDayRange(dateFrom: string, dateTill: string): DayRange {
  const from = parseDay(dateFrom, 'dateFrom');
  const till = parseDay(dateTill, 'dateTill');
  if (from > till) throw badRequest('fromAfterTill', {}, 'dateFrom');
  const days = (Date.parse(till) - Date.parse(from)) / 86_400_000 + 1;
  if (days > MAX_RANGE_DAYS) throw badRequest('periodTooLong', { max: String(MAX_RANGE_DAYS) }, 'dateTill');
  return { from, till };
}

import { type Static, type TSchema, type TUnsafe, Type } from '@sinclair/typebox';
import { MAX_INT } from './input.js';
import { MAX_PAGE_SIZE } from './limits.js';

/**
 * A value or null. For a primitive it is `{ type: [T, 'null'] }` rather than an
 * `anyOf` union: the response serialiser checks an `anyOf` per value, which made
 * a 5,000-row readings answer ~9x slower to serialise (docs/benchmarks.md).
 */
export function Nullable<T extends TSchema>(t: T): TUnsafe<Static<T> | null> {
  const type = (t as { type?: unknown }).type;
  // A constant (a union of one literal) or an enum would refuse null with `type` widened alone.
  if (typeof type === 'string' && type !== 'object' && type !== 'array' && !('const' in t) && !('enum' in t)) {
    return Type.Unsafe<Static<T> | null>({ ...t, type: [type, 'null'] });
  }
  return Type.Unsafe<Static<T> | null>(Type.Union([t, Type.Null()]));
}

/** A timestamp as ISO 8601 with the provider zone's offset, e.g. 2026-03-29T04:00:00+03:00. */
export const Timestamp = Type.String({ format: 'date-time', description: 'ISO 8601 with offset' });
/**
 * The years a day or month may name: what the product stores and shows. A year outside
 * (0000, which PostgreSQL refuses, or 9999) is a 400, never a database error.
 */
export const FIRST_YEAR = 1990;
export const LAST_YEAR = 2200;

/**
 * The JSON schema `format` of a calendar day: its first ten characters name a real day of
 * the Gregorian calendar (no 2026-02-30, no month 13, no year 0000). The server's validator
 * knows it by isCalendarDay and answers 400 `notCalendarDay`.
 */
export const CALENDAR_DAY_FORMAT = 'calendar-day';

/** Whether text starts with a real Gregorian day `YYYY-MM-DD` of the years 0001–9999. */
export function isCalendarDay(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 ? (leap ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31;
  return year >= 1 && month >= 1 && month <= 12 && day >= 1 && day <= days;
}

/** A calendar day, YYYY-MM-DD. */
export const Day = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}$',
  format: CALENDAR_DAY_FORMAT,
  description: 'YYYY-MM-DD, a real calendar day',
});
/**
 * A day as the client sends it: 'YYYY-MM-DD', or normalised 'YYYY-MM-DD 00:00:00' /
 * 'YYYY-MM-DD 23:59:59' (docs/domain.md §5). Only the day counts.
 */
export const DayParam = Type.String({
  pattern: '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2})?)?$',
  format: CALENDAR_DAY_FORMAT,
  description: 'YYYY-MM-DD, a real calendar day, optionally followed by a time that is ignored',
});
/** A month, YYYY-MM, of the years FIRST_YEAR–LAST_YEAR. */
export const MonthParam = Type.String({
  pattern: '^(199\\d|2[01]\\d\\d|2200)-(0[1-9]|1[0-2])$',
  description: 'YYYY-MM, years 1990–2200',
});

/**
 * A regular expression (without anchors) for the whole numbers 1..max written in decimal
 * without leading zeros: `upToPattern(255)` is `[1-9]\d{0,1}|1\d{2}|2[0-4]\d|25[0-4]|255`.
 */
export function upToPattern(max: number): string {
  const digits = String(max);
  const alternatives = [digits.length > 1 ? `[1-9]\\d{0,${digits.length - 2}}` : ''];
  for (let i = 0; i < digits.length; i++) {
    const d = Number(digits[i]);
    const low = i === 0 ? 1 : 0;
    if (d - 1 < low) continue;
    const rest = digits.length - i - 1;
    const range = d - 1 === low ? String(low) : `[${low}-${d - 1}]`;
    alternatives.push(`${digits.slice(0, i)}${range}${rest > 1 ? `\\d{${rest}}` : rest ? '\\d' : ''}`);
  }
  alternatives.push(digits);
  return alternatives.filter(Boolean).join('|');
}

/** One id in text: 1 to MAX_INT (PostgreSQL `integer`). */
export const ID_PATTERN = upToPattern(MAX_INT);
/** Ids as a query sends them, `12,40`: up to 1,000, each 1 to MAX_INT. */
export const IdList = Type.String({
  pattern: `^(${ID_PATTERN})(,(${ID_PATTERN})){0,999}$`,
  description: 'comma-separated ids, each 1 to 2147483647',
});

export const Id = Type.Integer({ minimum: 1, maximum: MAX_INT });
export const IdParams = Type.Object({ id: Id });
/** Paging query: 1-based page and a page size up to MAX_PAGE_SIZE. */
export const PageQuery = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  pageSize: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE })),
};
/** `userId` is accepted for compatibility with the old client; it must be the caller unless group 1 or 2. */
export const UserIdQuery = { userId: Type.Optional(Id) };

export const Ok = Type.Object({ message: Type.String() });

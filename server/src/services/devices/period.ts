import { MAX_RANGE_DAYS } from '@rodmenys/contract';
import { badRequest } from '../../errors.js';

/** A period of whole days: 'YYYY-MM-DD' (a trailing time, as the old client sends, is ignored). */
export interface DayRange {
  from: string;
  till: string;
}

/** A real calendar day between 1990 and 2200, else 400 naming `field`. */
export function parseDay(value: string, field: string): string {
  const day = value.slice(0, 10);
  const [y, m, d] = day.split('-').map(Number) as [number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) {
    throw badRequest('notCalendarDay', { value: day }, field);
  }
  if (y < 1990 || y > 2200) throw badRequest('yearOutOfRange', {}, field);
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

/** Parses `12,40` (or repeated parameters joined by the route) into ids. */
export function parseIdList(value: string | undefined): number[] | null {
  if (value === undefined || value === '') return null;
  return [...new Set(value.split(',').map(Number))];
}

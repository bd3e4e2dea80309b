import dayjs, { type Dayjs } from 'dayjs';
import timezone from 'dayjs/plugin/timezone';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);
dayjs.extend(timezone);

/**
 * The server sends times in the provider's zone with its offset (2026-03-29T04:00:00+03:00).
 * They are shown as the provider's wall-clock time whatever zone the browser is in.
 */
export const formatDateTime = (value: string | null | undefined): string =>
  value ? `${value.slice(0, 10)} ${value.slice(11, 16)}` : '';

/**
 * The last day of something that ends at a time (a key valid "until the end of 2027-11-27" ends at
 * 2027-11-28T00:00 in the provider's zone): the day before when it ends at midnight, else its own day.
 */
export const lastDayOf = (value: string): string =>
  value.slice(11, 16) === '00:00'
    ? dayjs(value.slice(0, 10)).subtract(1, 'day').format('YYYY-MM-DD')
    : value.slice(0, 10);

/**
 * Now as the provider's wall-clock time: a dayjs (in the browser's zone) carrying the
 * digits of the provider's clock, as the date pickers show them and as the API reads
 * days and times given without an offset. Without a zone (a session stored before the
 * server sent it), the browser's own clock.
 */
export function providerNow(timeZone: string | undefined, now: Date = new Date()): Dayjs {
  if (!timeZone) return dayjs(now);
  return dayjs(dayjs(now).tz(timeZone).format('YYYY-MM-DDTHH:mm:ss.SSS'));
}

/** A number with `digits` decimals in the UI language ("1 381,000" in lt), '' when there is none. */
export const formatNumber = (v: number | null | undefined, language: string, digits = 3) =>
  v === null || v === undefined
    ? ''
    : v.toLocaleString(language, { minimumFractionDigits: digits, maximumFractionDigits: digits });

/** A number as exact as it is stored (up to `maxDigits` decimals, no trailing zeros) in the UI language: 1,381 in lt. */
export const formatDecimal = (v: number | null | undefined, language: string, maxDigits = 6) =>
  v === null || v === undefined ? '' : v.toLocaleString(language, { maximumFractionDigits: maxDigits });

/**
 * A number the server wrote into a message's text ("111.908": a previous reading, a maximum) as the UI
 * language writes numbers ("111,908" in lt), every decimal kept; any other text (a serial, a day, a whole
 * number, which may be a code) as it came.
 */
export const formatNumberText = (text: string, language: string) => {
  const decimals = /^-?\d+\.(\d+)$/.exec(text)?.[1];
  return decimals ? formatDecimal(Number(text), language, Math.min(decimals.length, 20)) : text;
};

/** The decimal separator number fields use in the UI language (a comma in lt). */
export const decimalSeparator = (language: string) => (language === 'en' ? '.' : ',');

/** A month's name in the UI language ("2026 m. spalis", "October 2026") for titles. */
export const monthName = (month: string, language: string) =>
  new Date(`${month}-15T12:00:00Z`).toLocaleDateString(language, { year: 'numeric', month: 'long', timeZone: 'UTC' });

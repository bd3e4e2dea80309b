import { TEST_TIME_ZONE } from './db.js';

/** 'YYYY-MM' plus k months (k may be negative). */
export function plusMonths(month: string, k: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const i = y * 12 + (m - 1) + k;
  return `${Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, '0')}`;
}

/** The provider's month now ('YYYY-MM', the tests' zone): for tests of rules counted back from today. */
export function currentMonth(now = new Date()): string {
  const parts = new Intl.DateTimeFormat('en-GB', { timeZone: TEST_TIME_ZONE, year: 'numeric', month: '2-digit' })
    .formatToParts(now)
    .reduce<Record<string, string>>((acc, p) => Object.assign(acc, { [p.type]: p.value }), {});
  return `${parts.year}-${parts.month}`;
}

/** The provider's day `days` from today ('YYYY-MM-DD', the tests' zone, as the database's current_date). */
export function dayFromToday(days: number, now = new Date()): string {
  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TEST_TIME_ZONE }).format(now);
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

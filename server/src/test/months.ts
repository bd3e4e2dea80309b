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

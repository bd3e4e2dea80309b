import type { DeclarationWindow } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';

/**
 * The declaration window (docs/declared-readings.md): in each month, from the day
 * `declarations.windowStartDay` to the end of the day `declarations.windowEndDay` (a day past the
 * month's last is its last day), in the provider's zone. Between two windows the next one is given.
 */

/** The days of a month (`YYYY-MM-01`). */
const daysIn = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
};

const dayOf = (month: string, day: number) => `${month.slice(0, 8)}${String(day).padStart(2, '0')}`;

const nextMonth = (month: string) => {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return m === 12 ? `${y + 1}-01-01` : `${y}-${String(m + 1).padStart(2, '0')}-01`;
};

/** The window of a month (`YYYY-MM-01`): its first and last day. */
export function windowOfMonth(month: string, startDay: number, endDay: number): { opens: string; closes: string } {
  const last = daysIn(month);
  const from = Math.min(startDay, last);
  const to = Math.max(from, Math.min(endDay, last));
  return { opens: dayOf(month, from), closes: dayOf(month, to) };
}

/** The window of `today` (`YYYY-MM-DD` in the provider's zone): this month's, or the next one after it closed. */
export function windowOn(today: string, startDay: number, endDay: number): DeclarationWindow {
  let month = `${today.slice(0, 7)}-01`;
  let w = windowOfMonth(month, startDay, endDay);
  if (today > w.closes) {
    month = nextMonth(month);
    w = windowOfMonth(month, startDay, endDay);
  }
  return { Month: month.slice(0, 7), Opens: w.opens, Closes: w.closes, Open: today >= w.opens && today <= w.closes };
}

/** The window settings and today in the provider's zone (the session's). */
export async function currentWindow(db: Queryable, now: Date): Promise<DeclarationWindow> {
  const { rows } = await db.query<{ today: string; start: number | null; end: number | null }>(
    `SELECT to_char($1::timestamptz, 'YYYY-MM-DD') AS today,
            (SELECT (value #>> '{}')::int FROM dq_setting WHERE key = 'declarations.windowStartDay') AS start,
            (SELECT (value #>> '{}')::int FROM dq_setting WHERE key = 'declarations.windowEndDay') AS end`,
    [now],
  );
  const r = rows[0]!;
  return windowOn(r.today, r.start ?? 21, r.end ?? 31);
}

import type { SeasonPeriod } from './types.js';

/* The month cut where the heating season starts or ends inside it (docs/heat-method.md). */

/** A stretch of days of one month, all in or all out of the season. */
export interface MonthStretch {
  /** First day, 'YYYY-MM-DD'. */
  from: string;
  /** Last day, inclusive. */
  to: string;
  days: number;
  inSeason: boolean;
  /** Whether it starts on the month's first day (then the input's energy up to it is 0). */
  first: boolean;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The number of days of month 'YYYY-MM'. */
export function daysInMonth(month: string): number {
  const [y, m] = month.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(y, m, 0)).getUTCDate();
}

/** Whether day 'YYYY-MM-DD' is in one of the season's periods (ISO days compare as strings). */
export const inSeason = (day: string, seasons: readonly SeasonPeriod[]) =>
  seasons.some((p) => p.from <= day && (p.to === null || day <= p.to));

/** The month's stretches in and out of the season, in order; one stretch when nothing changes. */
export function monthStretches(month: string, seasons: readonly SeasonPeriod[]): MonthStretch[] {
  const n = daysInMonth(month);
  const out: MonthStretch[] = [];
  for (let d = 1; d <= n; d++) {
    const day = `${month}-${pad(d)}`;
    const s = inSeason(day, seasons);
    const last = out[out.length - 1];
    if (last && last.inSeason === s) {
      last.to = day;
      last.days++;
    } else out.push({ from: day, to: day, days: 1, inSeason: s, first: d === 1 });
  }
  return out;
}

/** The days inside the month on which the input's value is needed: every stretch's start but the first. */
export const splitDays = (month: string, seasons: readonly SeasonPeriod[]): string[] =>
  monthStretches(month, seasons)
    .filter((s) => !s.first)
    .map((s) => s.from);

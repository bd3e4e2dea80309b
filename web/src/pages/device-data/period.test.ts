import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { providerNow } from '../../format';
import { defaultPeriod, periodPresets, periodQuery } from './period';

const now = dayjs('2026-03-10T15:30:00');
const days = (p: [dayjs.Dayjs, dayjs.Dayjs]) => p.map((d) => d.format('YYYY-MM-DD'));

describe('period', () => {
  it('defaults to the first of this month until today and is sent as whole days', () => {
    expect(days(defaultPeriod(now))).toEqual(['2026-03-01', '2026-03-10']);
    expect(periodQuery(defaultPeriod(now))).toEqual({
      dateFrom: '2026-03-01 00:00:00',
      dateTill: '2026-03-10 23:59:59',
    });
  });
  it('has the presets today, yesterday, current month, current year, last month', () => {
    expect(Object.fromEntries(periodPresets(now).map((p) => [p.key, days(p.value)]))).toEqual({
      today: ['2026-03-10', '2026-03-10'],
      yesterday: ['2026-03-09', '2026-03-09'],
      currentMonth: ['2026-03-01', '2026-03-10'],
      currentYear: ['2026-01-01', '2026-03-10'],
      lastMonth: ['2026-02-01', '2026-02-28'],
    });
  });
});

describe('providerNow', () => {
  // 2026-03-29 01:30 UTC: 04:30 in Vilnius (clocks went forward at 01:00 UTC, 03:00 local), still the 28th in New York.
  const instant = new Date('2026-03-29T01:30:00Z');
  it("carries the provider's wall-clock digits, whatever the browser's zone", () => {
    expect(providerNow('Europe/Vilnius', instant).format('YYYY-MM-DD HH:mm')).toBe('2026-03-29 04:30');
    expect(providerNow('America/New_York', instant).format('YYYY-MM-DD HH:mm')).toBe('2026-03-28 21:30');
    expect(days(defaultPeriod(providerNow('America/New_York', instant)))).toEqual(['2026-03-01', '2026-03-28']);
  });
  it("falls back to the browser's clock without a zone", () => {
    expect(providerNow(undefined, instant).valueOf()).toBe(instant.valueOf());
  });
});

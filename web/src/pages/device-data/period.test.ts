import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
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

import dayjs, { type Dayjs } from 'dayjs';

export type Period = [Dayjs, Dayjs];

/** The default period: the first of this month to today (docs/domain.md §10). */
export const defaultPeriod = (now = dayjs()): Period => [now.startOf('month'), now.startOf('day')];

/** The presets of docs/domain.md §10, ending today at the latest. */
export function periodPresets(now = dayjs()): { key: string; value: Period }[] {
  const today = now.startOf('day');
  const lastMonth = today.subtract(1, 'month');
  return [
    { key: 'today', value: [today, today] },
    { key: 'yesterday', value: [today.subtract(1, 'day'), today.subtract(1, 'day')] },
    { key: 'currentMonth', value: [today.startOf('month'), today] },
    { key: 'currentYear', value: [today.startOf('year'), today] },
    { key: 'lastMonth', value: [lastMonth.startOf('month'), lastMonth.endOf('month').startOf('day')] },
  ];
}

/** The period as sent to the server: the start of the first day and the end of the last (docs/domain.md §5). */
export const periodQuery = ([from, till]: Period) => ({
  dateFrom: `${from.format('YYYY-MM-DD')} 00:00:00`,
  dateTill: `${till.format('YYYY-MM-DD')} 23:59:59`,
});

import { FieldTimeOutlined } from '@ant-design/icons';
import type { MonthEndRow } from '@rodmenys/contract';
import { Tooltip } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useUnmeasuredMonthEnds } from '../../api/data-quality';
import type { Period } from './period';

/** A row's month ends at the period's bounds that have no measured reading. */
export interface MonthEndMark {
  start?: MonthEndRow;
  end?: MonthEndRow;
}

/**
 * The months whose end is a bound of the period: the month before, when the period starts on a
 * 1st (its first instant is that month's end); the period's last month, when it ends on a month's
 * last day (the end of that day is the month's end). docs/data-quality.md.
 */
export function periodMonthEnds(period: Period): { start: string | null; end: string | null } {
  const [from, till] = period;
  return {
    start: from.date() === 1 ? from.subtract(1, 'month').format('YYYY-MM') : null,
    end: till.add(1, 'day').date() === 1 ? till.format('YYYY-MM') : null,
  };
}

/** Per device, the unmeasured month ends at the bounds of the period (none when neither bound is a month end). */
export function useMonthEndMarks(
  period: Period,
  deviceTypeId: number | null,
  locationParentId: string | undefined,
  enabled: boolean,
): ReadonlyMap<number, MonthEndMark> {
  const months = periodMonthEnds(period);
  const query = (month: string | null) => ({
    month: month ?? '2000-01',
    deviceTypeId: deviceTypeId ?? 1,
    ...(locationParentId ? { locationParentId } : {}),
  });
  const ok = enabled && deviceTypeId !== null;
  const start = useUnmeasuredMonthEnds(query(months.start), ok && months.start !== null);
  const end = useUnmeasuredMonthEnds(query(months.end), ok && months.end !== null);
  return useMemo(() => {
    const marks = new Map<number, MonthEndMark>();
    if (months.start) for (const m of start.data ?? []) marks.set(m.DeviceId, { start: m });
    if (months.end) for (const m of end.data ?? []) marks.set(m.DeviceId, { ...marks.get(m.DeviceId), end: m });
    return marks;
  }, [months.start, months.end, start.data, end.data]);
}

/** The mark of a row whose period starts or ends at a month end without a measured reading; hover or a screen reader tells the month-end value and its source. */
export function MonthEndMarker({ mark }: { mark: MonthEndMark }) {
  const { t } = useTranslation();
  const line = (key: 'start' | 'end', m: MonthEndRow | undefined) =>
    m &&
    t(`deviceData.monthEnd.${key}`, {
      month: m.Month,
      value: m.Value.toFixed(3),
      source: t(`anomalies.sources.${m.Source}`),
    });
  const text = [line('start', mark.start), line('end', mark.end)].filter(Boolean).join('; ');
  if (!text) return null;
  return (
    <Tooltip title={text}>
      <FieldTimeOutlined className="reading-month-end" role="img" aria-label={text} />
    </Tooltip>
  );
}

import type { HistoryPoint, MonthEndRow } from '@rodmenys/contract';
import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { withMonthEnds } from './history-chart';
import { monthEndsIn } from './history-modal';

const point = (time: string, value: number): HistoryPoint => ({
  Time: time,
  Value: value,
  Consumption: 1,
  FirstReadingTime: time,
  LastReadingTime: time,
  Readings: 1,
});
const monthEnd = (month: string, at: string, value: number, source: MonthEndRow['Source']): MonthEndRow => ({
  DeviceId: 1,
  Month: month,
  MonthEnd: at,
  Value: value,
  Source: source,
  ReadingTime: null,
  NextReadingTime: null,
  Method: null,
  Reason: null,
  SetBy: null,
  PreviousValue: null,
  PreviousSource: null,
  ChangedAt: null,
  ComputedAt: at,
});

describe('month-end values on the history chart', () => {
  it('a month end at a bucket start is drawn on it; one without a bucket gets its own place, in time order', () => {
    const data = withMonthEnds(
      [
        point('2026-01-31T00:00:00+02:00', 10),
        point('2026-02-01T00:00:00+02:00', 11),
        point('2026-04-02T00:00:00+03:00', 30),
      ],
      [
        monthEnd('2026-01', '2026-02-01T00:00:00+02:00', 10.5, 'measured'),
        // A silent device's estimate: no bucket at the end of February (offset written differently).
        monthEnd('2026-02', '2026-02-28T22:00:00Z', 17, 'estimated'),
        monthEnd('2026-03', '2026-04-01T00:00:00+03:00', 29, 'interpolated'),
      ],
    );
    expect(data.map((d) => d.Time)).toEqual([
      '2026-01-31T00:00:00+02:00',
      '2026-02-01T00:00:00+02:00',
      '2026-02-28T22:00:00Z',
      '2026-04-01T00:00:00+03:00',
      '2026-04-02T00:00:00+03:00',
    ]);
    expect(data[1]).toMatchObject({ Value: 11, monthEnd_measured: 10.5 });
    expect(data[2]).toEqual(expect.objectContaining({ monthEnd_estimated: 17 }));
    expect(data[2]?.Value).toBeUndefined();
    expect(data[3]).toMatchObject({ monthEnd_interpolated: 29 });
    expect(data[4]).not.toHaveProperty('monthEnd_interpolated');
  });

  it('fetches the months whose end falls inside the period', () => {
    const months = (from: string, till: string) => monthEndsIn([dayjs(from), dayjs(till)]);
    // 1 Jan – 31 Mar: the ends of December (= 1 Jan 00:00), January, February and March.
    expect(months('2026-01-01', '2026-03-31')).toEqual({ from: '2025-12', till: '2026-03' });
    expect(months('2026-01-15', '2026-03-15')).toEqual({ from: '2026-01', till: '2026-02' });
    expect(months('2026-03-02', '2026-03-30')).toBeNull();
  });
});

describe('the month ends at a readings period’s bounds', () => {
  it('the month before when it starts on a 1st, its last month when it ends on a last day', async () => {
    const { periodMonthEnds } = await import('./month-end-marks');
    const bounds = (from: string, till: string) => periodMonthEnds([dayjs(from), dayjs(till)]);
    expect(bounds('2026-10-01', '2026-10-31')).toEqual({ start: '2026-09', end: '2026-10' });
    expect(bounds('2026-01-01', '2026-02-28')).toEqual({ start: '2025-12', end: '2026-02' });
    expect(bounds('2026-10-02', '2026-10-30')).toEqual({ start: null, end: null });
    expect(bounds('2024-02-01', '2024-02-29')).toEqual({ start: '2024-01', end: '2024-02' });
  });
});

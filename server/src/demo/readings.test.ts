import { DEVICE_TYPE } from '@rodmenys/contract';
import { describe, expect, it } from 'vitest';
import { renderSeries, type SeriesDevice, type SeriesOptions, startValue, timeline } from './readings.js';

const after = Date.parse('2026-03-20T00:00:00Z');
const until = Date.parse('2026-04-02T13:17:00Z');

/** One device's series from `after` to `until` (seed 1), every `intervalHours`. */
const render = (intervalHours: number, device: SeriesDevice, opts: Pick<SeriesOptions, 'fromValue' | 'gaps'>) =>
  renderSeries(timeline(intervalHours, after, until), device, { seed: 1, afterMs: after, untilMs: until, ...opts });

function parse(csv: string) {
  return csv
    .trim()
    .split('\n')
    .map((line) => {
      const [id, ts, meterTs, value] = line.split(',') as [string, string, string, string];
      return { id: Number(id), ts, meterTs, value };
    });
}

describe('renderSeries', () => {
  for (const intervalHours of [1, 6, 8]) {
    it(`writes valid, increasing times inside the range every ${intervalHours} h`, () => {
      const s = render(
        intervalHours,
        { id: 9, code: '12345678', typeId: DEVICE_TYPE.coldWaterMeter },
        { fromValue: startValue(1, '12345678', 3) },
      );
      const rows = parse(s.csv);
      expect(rows).toHaveLength(s.count);
      expect(s.count).toBeGreaterThanOrEqual(Math.floor((until - after) / (intervalHours * 3_600_000)) - 1);
      let previous = after;
      for (const r of rows) {
        const ts = Date.parse(r.ts);
        const meterTs = Date.parse(r.meterTs);
        // The hand-made ISO text is exactly what toISOString would write.
        expect(new Date(ts).toISOString().replace('.000', '')).toBe(r.ts);
        expect(new Date(meterTs).toISOString().replace('.000', '')).toBe(r.meterTs);
        expect(ts).toBeGreaterThan(previous);
        expect(ts).toBeLessThanOrEqual(until);
        expect(ts % (intervalHours * 3_600_000)).toBeLessThan(3_600_000);
        expect(ts - meterTs).toBeGreaterThanOrEqual(20_000);
        expect(ts - meterTs).toBeLessThan(8 * 60_000);
        expect(r.value).toMatch(/^\d+\.\d{3}$/);
        previous = ts;
      }
    });
  }

  it('continues from the given value, whole units for allocators, and leaves gaps empty', () => {
    const gap = [Date.parse('2026-03-25T00:00:00Z'), Date.parse('2026-03-27T12:00:00Z')] as const;
    const s = render(6, { id: 1, code: '87654321', typeId: DEVICE_TYPE.allocator }, { fromValue: 1000, gaps: [gap] });
    const rows = parse(s.csv);
    const values = rows.map((r) => Number(r.value));
    expect(rows.every((r) => /^\d+$/.test(r.value))).toBe(true);
    expect(values[0]).toBeGreaterThanOrEqual(1000);
    expect(values.every((v, i) => i === 0 || v >= values[i - 1]!)).toBe(true);
    expect(values.at(-1)).toBeGreaterThan(1000);
    expect(rows.some((r) => Date.parse(r.ts) >= gap[0] && Date.parse(r.ts) < gap[1])).toBe(false);
    expect(s.lastValue).toBeGreaterThanOrEqual(values.at(-1)!);
  });
});

import { describe, expect, it } from 'vitest';
import { toExcelDate } from './audit/list-audit.js';
import { dateTime } from './master-data/register-import/cells.js';
import { isRealTime, parseWrittenTime, wallClockOf, wallClockText } from './time.js';

const at = (year: number, month: number, day: number, hour = 0, minute = 0, second = 0) => ({
  year,
  month,
  day,
  hour,
  minute,
  second,
});

describe('the one time parser (services/time.ts)', () => {
  it('knows the calendar: leap years, month lengths, the last second of a day', () => {
    expect(isRealTime(at(2024, 2, 29))).toBe(true);
    expect(isRealTime(at(2000, 2, 29))).toBe(true);
    expect(isRealTime(at(2100, 2, 29))).toBe(false);
    expect(isRealTime(at(2026, 4, 31))).toBe(false);
    expect(isRealTime(at(2026, 12, 31, 23, 59, 59))).toBe(true);
    for (const bad of [at(2026, 0, 1), at(2026, 13, 1), at(2026, 1, 0), at(2026, 1, 1, 24), at(2026, 1, 1, 0, 60)]) {
      expect(isRealTime(bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('reads dates as a spreadsheet has them, year or day first, with an optional time', () => {
    const read = (s: string) => {
      const t = parseWrittenTime(s);
      return t && wallClockText(t);
    };
    expect(read('2026-03-01')).toBe('2026-03-01 00:00:00');
    expect(read('2026.3.1 7:05')).toBe('2026-03-01 07:05:00');
    expect(read('2026/03/01T07:05:09')).toBe('2026-03-01 07:05:09');
    expect(read('01.03.2026')).toBe('2026-03-01 00:00:00');
    expect(read('29.02.2024 23:59:59')).toBe('2024-02-29 23:59:59');
    for (const bad of [
      '29.02.2026',
      '2026-02-30',
      '31.04.2026',
      '1899-12-31',
      '2201-01-01',
      '2026-01-01 24:00',
      '01/03/2026',
      'kovo 1',
    ]) {
      expect(read(bad), bad).toBeUndefined();
    }
    // The register's cells read through it.
    expect(dateTime('01.03.2026 7:05')).toBe('2026-03-01 07:05:00');
    expect(dateTime('2026-02-29')).toBeUndefined();
  });

  it("takes the wall clock of the database's ISO text (the audit export's Excel dates)", () => {
    expect(wallClockOf('2026-03-29T04:00:00+03:00')).toEqual(at(2026, 3, 29, 4, 0, 0));
    expect(wallClockOf('2026-03-29 04:00:00')).toBeUndefined();
    expect(toExcelDate('2026-10-25T03:30:00+02:00').toISOString()).toBe('2026-10-25T03:30:00.000Z');
    expect(() => toExcelDate('yesterday')).toThrow();
  });
});

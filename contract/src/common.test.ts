import { describe, expect, it } from 'vitest';
import { ID_PATTERN, IdList, isCalendarDay, MonthParam, upToPattern } from './common.js';
import { MAX_INT } from './input.js';

describe('the id-list, month and day types', () => {
  it('upToPattern matches exactly 1..max, without leading zeros', () => {
    for (const max of [1, 9, 10, 255, 1000, 2024]) {
      const re = new RegExp(`^(${upToPattern(max)})$`);
      for (let n = 0; n <= max + 20; n++) expect([n, re.test(String(n))]).toEqual([n, n >= 1 && n <= max]);
      expect(re.test(`0${max}`)).toBe(false);
    }
  });

  it('an id list holds ids 1..2147483647 and nothing else', () => {
    const re = new RegExp(IdList.pattern);
    expect(new RegExp(`^(${ID_PATTERN})$`).test(String(MAX_INT))).toBe(true);
    for (const ok of ['1', '12,40', `1,${MAX_INT}`, '2147483646', '1999999999'])
      expect([ok, re.test(ok)]).toEqual([ok, true]);
    for (const bad of ['0', '-1', '2147483648', '9999999999', '1,2147483648', '01', '1,,2', '', '1,'])
      expect([bad, re.test(bad)]).toEqual([bad, false]);
  });

  it('a month is YYYY-MM of the years 1990–2200', () => {
    const re = new RegExp(MonthParam.pattern);
    for (const ok of ['1990-01', '2026-12', '2199-06', '2200-12']) expect([ok, re.test(ok)]).toEqual([ok, true]);
    for (const bad of ['0000-01', '9999-12', '1989-12', '2201-01', '2026-13', '2026-00', '2026-1'])
      expect([bad, re.test(bad)]).toEqual([bad, false]);
  });

  it('isCalendarDay knows the Gregorian calendar', () => {
    for (const ok of ['2024-02-29', '2000-02-29', '2026-04-30', '2026-12-31 23:59:59', '0001-01-01', '9999-12-31'])
      expect([ok, isCalendarDay(ok)]).toEqual([ok, true]);
    for (const bad of [
      '2026-02-29',
      '1900-02-29',
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31',
      '0000-01-01',
      'x',
    ])
      expect([bad, isCalendarDay(bad)]).toEqual([bad, false]);
  });
});

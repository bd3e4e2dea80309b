import { describe, expect, it } from 'vitest';
import { decimalSeparator, formatDecimal, formatNumber, lastDayOf, monthName } from './format';

describe('numbers and months in the UI language', () => {
  it('writes a decimal comma in lt and a point in en', () => {
    expect(formatDecimal(1.381, 'lt')).toBe('1,381');
    expect(formatDecimal(1.381, 'en')).toBe('1.381');
    expect(formatDecimal(2, 'lt')).toBe('2');
    expect(formatDecimal(null, 'lt')).toBe('');
    expect(formatNumber(1.5, 'lt')).toBe('1,500');
    expect(formatNumber(1.5, 'en', 1)).toBe('1.5');
    expect(decimalSeparator('lt')).toBe(',');
    expect(decimalSeparator('en')).toBe('.');
  });

  it('names a month instead of its digits', () => {
    expect(monthName('2026-10', 'en')).toBe('October 2026');
    expect(monthName('2026-10', 'lt')).toMatch(/spalis/);
  });

  it("shows a key's last day, not the midnight after it (the provider's wall clock, whatever the offset)", () => {
    expect(lastDayOf('2027-11-28T00:00:00+02:00')).toBe('2027-11-27');
    expect(lastDayOf('2027-04-01T00:00:00+03:00')).toBe('2027-03-31');
    expect(lastDayOf('2027-01-01T00:00:00.000+02:00')).toBe('2026-12-31');
    expect(lastDayOf('2027-11-28T13:45:00+02:00')).toBe('2027-11-28');
  });
});

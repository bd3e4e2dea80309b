import { describe, expect, it } from 'vitest';
import { decimalSeparator, formatDecimal, formatNumber, monthName } from './format';

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
});

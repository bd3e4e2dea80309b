import { describe, expect, it } from 'vitest';
import { csvField, neutraliseCsvText } from './csv.js';

describe('neutraliseCsvText', () => {
  it('puts a quote before every formula trigger of OWASP', () => {
    for (const text of ['=1+1', '+1+1', '-1+1', '@SUM(A1)', '\t=1', '\r=1', '=HYPERLINK("http://x","Click")', '-2e3'])
      expect(neutraliseCsvText(text)).toBe(`'${text}`);
  });
  it('keeps plain numbers (negative too) and ordinary text', () => {
    for (const text of ['-12.5', '-12,5', '+3', '0', 'Vilnius', "O'Brien", 'a=b', ' =x'])
      expect(neutraliseCsvText(text)).toBe(text);
  });
});

describe('csvField', () => {
  it('writes numbers as numbers, quotes neutralised and special text', () => {
    expect(csvField(-5, ';')).toBe('-5');
    expect(csvField(null, ';')).toBe('');
    expect(csvField('=1+1', ';')).toBe(`"'=1+1"`);
    expect(csvField('=HYPERLINK("h","c")', ',')).toBe(`"'=HYPERLINK(""h"",""c"")"`);
    expect(csvField('a;b', ';')).toBe('"a;b"');
    expect(csvField('a;b', ',')).toBe('a;b');
  });
});

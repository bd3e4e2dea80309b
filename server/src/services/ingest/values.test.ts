import { describe, expect, it } from 'vitest';
import { parseTime } from '../time.js';
import { parseReceptionTime } from './values.js';

describe('parseTime', () => {
  it('reads the usual shapes, with and without a zone, seconds and fractions', () => {
    const utc = (...a: [number, number, number, number?, number?, number?]) =>
      Date.UTC(a[0], a[1] - 1, a[2], a[3] ?? 0, a[4] ?? 0, a[5] ?? 0);
    expect(parseTime('2026-01-31')).toEqual({
      text: '2026-01-31',
      year: 2026,
      day: '2026-01-31',
      approxMs: utc(2026, 1, 31),
    });
    expect(parseTime(' 2026-01-31 23:05 ')).toMatchObject({
      text: '2026-01-31 23:05',
      approxMs: utc(2026, 1, 31, 23, 5),
    });
    expect(parseTime('2026-01-31T23:05:59')?.approxMs).toBe(utc(2026, 1, 31, 23, 5, 59));
    expect(parseTime('2026-01-31T23:05:59.123Z')?.approxMs).toBe(utc(2026, 1, 31, 23, 5, 59));
    expect(parseTime('2026-01-31Z')?.approxMs).toBe(utc(2026, 1, 31));
    expect(parseTime('2026-01-31T23:05:59+02:00')?.approxMs).toBe(utc(2026, 1, 31, 21, 5, 59));
    expect(parseTime('2026-01-31 23:05 z')?.day).toBe('2026-01-31');
    expect(parseTime('2024-02-29 12:00')?.year).toBe(2024);
  });

  it('refuses what is not a real time, in every shape', () => {
    for (const bad of [
      '2026-02-29',
      '2100-02-29 00:00',
      '2026-13-01',
      '2026-00-10',
      '2026-04-31T00:00:00Z',
      '2026-01-01 24:00',
      '2026-01-01 23:60',
      '2026-01-01T23:59:60',
      '2026-01-01T23:59:60+02:00',
      '2026-01-01T10:00+15:00',
      '2026-1-01',
      '2026-01-01T10',
      'yesterday',
      '',
    ]) {
      expect(parseTime(bad), bad).toBeUndefined();
    }
  });

  it('takes reception times from 2000 to a day ahead', () => {
    const now = new Date('2026-03-01T12:00:00Z');
    expect(parseReceptionTime('2026-03-02 11:00', now)).toMatchObject({ text: '2026-03-02 11:00' });
    expect(parseReceptionTime('2026-03-02T13:00:00Z', now)).toBe(
      'is not a plausible reception time: "2026-03-02T13:00:00Z"',
    );
    expect(parseReceptionTime('1999-12-31 23:59', now)).toBe('is not a plausible reception time: "1999-12-31 23:59"');
    expect(parseReceptionTime('2026-02-30', now)).toBe('is not an ISO 8601 time: "2026-02-30"');
  });
});

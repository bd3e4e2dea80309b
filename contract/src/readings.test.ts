import { describe, expect, it } from 'vitest';
import { readingFlags } from './readings.js';

// The end T of a period through 31 March: 1 April 00:00, whose reading ends the period.
const end = new Date('2026-04-01T00:00:00+03:00');
const now = new Date('2026-06-01T00:00:00Z');
const row = (TimeTill: string | null, Difference: number | null, RemovedAt: string | null = null) => ({
  TimeTill,
  Difference,
  RemovedAt,
});

describe('readingFlags', () => {
  it('flags a device with no end reading', () => {
    expect(readingFlags(row(null, null), end, now)).toEqual(['NO_READING']);
  });
  it('accepts an end reading exactly 4 days old and flags one just older', () => {
    expect(readingFlags(row('2026-03-28T00:00:00+03:00', 1), end, now)).toEqual([]);
    expect(readingFlags(row('2026-03-27T23:59:59+03:00', 1), end, now)).toEqual(['STALE']);
  });
  it('caps the end of the period at now', () => {
    const today = new Date('2026-03-10T12:00:00+02:00');
    expect(readingFlags(row('2026-03-07T12:00:00+02:00', 1), end, today)).toEqual([]);
    expect(readingFlags(row('2026-03-06T11:00:00+02:00', 1), end, today)).toEqual(['STALE']);
  });
  it('does not flag a device removed inside the period as silent', () => {
    expect(readingFlags(row('2026-03-10T10:00:00+02:00', 5, '2026-03-10T10:00:00+02:00'), end, now)).toEqual([]);
  });
  it('flags a negative difference, alone or with staleness', () => {
    expect(readingFlags(row('2026-03-31T10:00:00+03:00', -0.001), end, now)).toEqual(['NEGATIVE']);
    expect(readingFlags(row('2026-03-01T10:00:00+02:00', -3), end, now)).toEqual(['STALE', 'NEGATIVE']);
  });
  it('does not flag zero consumption', () => {
    expect(readingFlags(row('2026-03-31T10:00:00+03:00', 0), end, now)).toEqual([]);
  });
});

/**
 * The M-Bus date types (EN 13757-3 annex A): G (date, 2 bytes), F (date and time to the
 * minute, 4 bytes) and I (to the second, 6 bytes). They are the meter's wall clock, without a
 * zone, so they are kept as text (YYYY-MM-DD, YYYY-MM-DDTHH:MM[:SS]) with the other values.
 */

import { isRealTime, type WallClock } from '../../../time.js';
import type { RawValue } from './data-field.js';

const pad = (n: number) => String(n).padStart(2, '0');

/** Day, month and year packed as types G, F and I share them: day in `dayByte`, month in `monthByte`. */
function dayMonthYear(dayByte: number, monthByte: number) {
  return {
    day: dayByte & 0x1f,
    month: monthByte & 0x0f,
    // Seven bits of year: three above the day, four above the month; 0–99 = 2000–2099.
    year: ((dayByte & 0xe0) >> 5) | ((monthByte & 0xf0) >> 1),
  };
}

function wallClock(t: WallClock, withTime: boolean, withSeconds: boolean): RawValue {
  if (t.year > 99) return { kind: 'invalid', reason: 'date-invalid' };
  const clock = { ...t, year: 2000 + t.year };
  if (!isRealTime(clock)) return { kind: 'invalid', reason: 'date-invalid' };
  let text = `${clock.year}-${pad(clock.month)}-${pad(clock.day)}`;
  if (withTime) text += `T${pad(clock.hour)}:${pad(clock.minute)}`;
  if (withSeconds) text += `:${pad(clock.second)}`;
  return { kind: 'text', value: text };
}

/** A date or date-time of `length` bytes at `at`: type G (2), F (4) or I (6); other lengths are no date. */
export function readDateType(bytes: Uint8Array, at: number, length: number, withTime: boolean): RawValue {
  const b = (i: number) => bytes[at + i]!;
  const allOnes = bytes.subarray(at, at + length).every((x) => x === 0xff);
  const allZero = bytes.subarray(at, at + length).every((x) => x === 0);
  if (allOnes || allZero) return { kind: 'none' };
  if (!withTime && length === 2) {
    return wallClock({ ...dayMonthYear(b(0), b(1)), hour: 0, minute: 0, second: 0 }, false, false);
  }
  if (withTime && length === 4) {
    if (b(0) & 0x80) return { kind: 'none' }; // IV: the meter says its time is invalid
    return wallClock({ ...dayMonthYear(b(2), b(3)), hour: b(1) & 0x1f, minute: b(0) & 0x3f, second: 0 }, true, false);
  }
  if (withTime && length === 6) {
    if (b(1) & 0x80) return { kind: 'none' };
    const t = { ...dayMonthYear(b(3), b(4)), hour: b(2) & 0x1f, minute: b(1) & 0x3f, second: b(0) & 0x3f };
    return wallClock(t, true, true);
  }
  return { kind: 'invalid', reason: 'date-coding' };
}

import type { ReadingFlag } from './devices.js';
import { STALE_AFTER_DAYS } from './limits.js';

const DAY_MS = 86_400_000;

/**
 * Why a readings row is suspicious (docs/domain.md §7): no end reading; an end reading
 * more than 4 days older than the end of the period (capped at now, and at the
 * removal of a device taken out inside the period); a negative difference.
 * `periodEnd` is the period's end T: 00:00 of the day after its last day in the provider's
 * zone, whose reading (if any) still ends the period (docs/domain.md §5).
 */
export function readingFlags(
  row: { TimeTill: string | null; Difference: number | null; RemovedAt: string | null },
  periodEnd: Date,
  now: Date,
): ReadingFlag[] {
  const flags: ReadingFlag[] = [];
  if (row.TimeTill === null) {
    flags.push('NO_READING');
  } else {
    let reference = Math.min(periodEnd.getTime(), now.getTime());
    if (row.RemovedAt !== null) reference = Math.min(reference, Date.parse(row.RemovedAt));
    if (Date.parse(row.TimeTill) < reference - STALE_AFTER_DAYS * DAY_MS) flags.push('STALE');
  }
  if (row.Difference !== null && row.Difference < 0) flags.push('NEGATIVE');
  return flags;
}

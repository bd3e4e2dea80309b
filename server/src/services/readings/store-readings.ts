import type { Queryable } from '../../db/db.js';
import { requireMonthPartitions } from '../partitions/partitions.js';

/**
 * The one writer of `reading` (docs/ingest.md, docs/domain.md §2): collector telegrams,
 * CSV files, and an operator's initial, final and replacement readings all store theirs
 * through `readingsStatement`, so every reading write does the same three things in one
 * statement:
 *
 * - inserts the readings, each selected from `device` by the caller (`reading` has no
 *   foreign key: migration 012), in (device, time) order, the one lock order of writers;
 * - queues their months for the data-quality work (`dq_pending`,
 *   services/data-quality/refresh-month-ends.ts);
 * - keeps `device_status` one way: `last_seen` only ever rises, to the newest reading
 *   written (or telegram received), so LastSeen needs no probe of `reading`.
 *
 * Bulk loaders that COPY readings (demo seed and top-up, test factories, benchmarks) call
 * `keep_last_seen` (migration 030) afterwards instead.
 */
export interface ReadingsWrite {
  /** Common table expressions the rows read from, written before the readings' (e.g. the telegrams' insert). */
  with?: string;
  /** A SELECT of (device_id, ts, meter_ts, value), each of an existing device, ordered by device_id, ts. */
  rows: string;
  /**
   * A reading already stored for the device at that time: kept (collectors and files: the same
   * reading twice changes nothing) or its value replaced (an operator's reading at an instant).
   */
  onConflict: 'keep' | 'replace';
  /** More (device_id, month) pairs whose month-end values to compute again: the set-day values' months. */
  morePending?: string;
  /**
   * The batch's telegrams, when readings come from a collector: device_status then follows the
   * latest telegram of each device (received time, status flags; `latest` gives device_id, ts, flags)
   * and its latest set day (`setDay`: device_id, set_date, set_value), and LastSeen counts every
   * telegram, with a value or not. Without: LastSeen from the readings written.
   */
  telegrams?: { latest: string; setDay: string };
  /**
   * The readings come from a collector's file (CSV): device_status also keeps the newest one's
   * time as `file_ts`, a collector having heard the device then (docs/device-lifetime.md).
   */
  fromFile?: true;
  /** The statement's result, a SELECT that may read `written` (device_id, ts of the readings stored). */
  result: string;
}

const SEEN_FROM_READINGS = `INSERT INTO device_status AS s (device_id, last_seen)
       SELECT device_id, max(ts) FROM written GROUP BY device_id ORDER BY device_id
       ON CONFLICT (device_id) DO UPDATE SET last_seen = greatest(s.last_seen, excluded.last_seen)`;

/** LastSeen as above, and the newest reading of a collector's file. */
const SEEN_FROM_FILE = `INSERT INTO device_status AS s (device_id, last_seen, file_ts)
       SELECT device_id, max(ts), max(ts) FROM written GROUP BY device_id ORDER BY device_id
       ON CONFLICT (device_id) DO UPDATE SET last_seen = greatest(s.last_seen, excluded.last_seen),
         file_ts = greatest(s.file_ts, excluded.file_ts)`;

/** device_status from telegrams: LastSeen as above; flags of the newest telegram; the newest set day's value. */
const seenFromTelegrams = (t: { latest: string; setDay: string }) => `INSERT INTO device_status AS s
         (device_id, last_seen, telegram_ts, flags, set_date, set_value)
       SELECT l.device_id, l.ts, l.ts, l.flags, sd.set_date, sd.set_value
         FROM (${t.latest}) l LEFT JOIN (${t.setDay}) sd USING (device_id)
        ORDER BY l.device_id
       ON CONFLICT (device_id) DO UPDATE SET
         last_seen = greatest(s.last_seen, excluded.last_seen),
         telegram_ts = greatest(s.telegram_ts, excluded.telegram_ts),
         flags = CASE WHEN excluded.telegram_ts >= coalesce(s.telegram_ts, '-infinity') THEN excluded.flags
                      ELSE s.flags END,
         set_value = CASE WHEN excluded.set_date >= coalesce(s.set_date, '-infinity') THEN excluded.set_value
                          ELSE s.set_value END,
         set_date = greatest(s.set_date, excluded.set_date)`;

/** The one statement that writes readings (see above). */
export function readingsStatement(w: ReadingsWrite): string {
  const onConflict =
    w.onConflict === 'keep'
      ? 'ON CONFLICT DO NOTHING'
      : 'ON CONFLICT (device_id, ts) DO UPDATE SET value = excluded.value';
  // A reading's month, and for one stamped exactly at a month's first instant also the month before: it is
  // that month's end value (the midnight rule, docs/data-quality.md).
  const months = `SELECT device_id, m::date FROM written,
       LATERAL (VALUES (date_trunc('month', ts)), (date_trunc('month', ts - interval '1 microsecond'))) AS x(m)`;
  return `WITH ${w.with ? `${w.with},` : ''}
     written AS (
       INSERT INTO reading (device_id, ts, meter_ts, value)
       ${w.rows}
       ${onConflict}
       RETURNING device_id, ts
     ), pending AS (
       INSERT INTO dq_pending (device_id, month)
       ${w.morePending ? `${months} UNION ${w.morePending}` : months.replace('SELECT', 'SELECT DISTINCT')}
        ORDER BY 1, 2
       ON CONFLICT DO NOTHING
     ), seen AS (
       ${w.telegrams ? seenFromTelegrams(w.telegrams) : w.fromFile ? SEEN_FROM_FILE : SEEN_FROM_READINGS}
     )
     ${w.result}`;
}

/** A reading an operator gives: a device's initial reading, or its final one at removal or replacement. */
export interface GivenReading {
  deviceId: number;
  /** timestamptz text. */
  ts: string;
  value: number;
}

const GIVEN = readingsStatement({
  rows: `SELECT d.id, u.ts, NULL::timestamptz, u.value
       FROM unnest($1::int[], $2::timestamptz[], $3::numeric[]) AS u(device_id, ts, value)
       JOIN device d ON d.id = u.device_id
      ORDER BY 1, 2`,
  // The operator's value is the truth at that instant, also over a collector's reading there.
  onConflict: 'replace',
  result: 'SELECT count(*)::int AS n FROM written',
});

/** Stores given readings in the caller's transaction; returns how many were written. */
export async function storeGivenReadings(tx: Queryable, readings: readonly GivenReading[]): Promise<number> {
  // Their months have partitions before anything is written (the caller runs in writeIntoMonths).
  await requireMonthPartitions(
    tx,
    readings.map((r) => r.ts),
  );
  if (readings.length === 0) return 0;
  const { rows } = await tx.query<{ n: number }>(GIVEN, [
    readings.map((r) => r.deviceId),
    readings.map((r) => r.ts),
    readings.map((r) => r.value),
  ]);
  return rows[0]!.n;
}

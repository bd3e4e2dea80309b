import type { Db, Queryable } from '../../db/db.js';
import { computeMonthEnds } from './month-ends.js';
import { type DqSettings, loadSettings } from './settings.js';

export interface RefreshResult {
  /** Devices whose new readings or memory values were taken from the queue. */
  devices: number[];
  /** Month-end rows written (new or changed). */
  written: number;
}

/**
 * Keeps `month_end` current without rescanning readings (docs/data-quality.md):
 *
 * - the queue `dq_pending` (device, month), filled by every statement that stores
 *   readings or device memory, is taken; for each queued device its queued months
 *   and every month end it has that was interpolated or estimated (a late reading
 *   may now value them better) are computed again;
 * - with `ensure` (the hourly run), every device in service at a completed
 *   month end of the last `monthEnd.keepMonths` months that has no value yet and
 *   a reading before it gets one (a new month, a new device, catching up after
 *   downtime). The every-minute run takes only the queue.
 *
 * Months are computed in ascending order (estimates build on the month before).
 * One transaction: the queue is emptied only if the values are stored.
 */
export async function refreshMonthEnds(
  db: Db,
  now = new Date(),
  { ensure = true }: { ensure?: boolean } = {},
): Promise<RefreshResult> {
  return db.transaction(async (tx) => {
    const settings = await loadSettings(tx);
    const { rows: taken } = await tx.query<{ device_id: number; month: string }>(
      'DELETE FROM dq_pending RETURNING device_id, month::text AS month',
    );
    const devices = [...new Set(taken.map((r) => r.device_id))].sort((a, b) => a - b);
    const { rows: work } = await tx.query<{ month: string; ids: number[] | null; all_missing: boolean }>(
      `WITH lim AS (
         SELECT (date_trunc('month', $3::timestamptz) - make_interval(months => $4::int))::date AS first,
                (date_trunc('month', $3::timestamptz) - interval '1 month')::date AS last
       ), queued AS (
         SELECT * FROM unnest($1::int[], $2::date[]) AS t(device_id, month)
         UNION
         SELECT me.device_id, me.month FROM month_end me
          WHERE me.device_id = ANY ($5::int[]) AND me.source IN ('interpolated', 'estimated')
       ), months AS (
         SELECT generate_series(lim.first, lim.last, interval '1 month')::date AS month FROM lim
       )
       SELECT m.month::text AS month,
              (SELECT array_agg(DISTINCT q.device_id) FROM queued q WHERE q.month = m.month) AS ids,
              $6::boolean AND EXISTS (
                SELECT FROM device d
                 WHERE coalesce(d.installed_at, '-infinity') < (m.month + interval '1 month')::timestamp::timestamptz
                   AND coalesce(d.removed_at, 'infinity') >= (m.month + interval '1 month')::timestamp::timestamptz
                   AND NOT EXISTS (SELECT FROM month_end me WHERE me.device_id = d.id AND me.month = m.month)
                   AND EXISTS (SELECT FROM reading r WHERE r.device_id = d.id
                                 AND r.ts < (m.month + interval '1 month')::timestamp::timestamptz)
              ) AS all_missing
         FROM months m
        ORDER BY m.month`,
      [taken.map((r) => r.device_id), taken.map((r) => r.month), now, settings['monthEnd.keepMonths'], devices, ensure],
    );
    let written = 0;
    for (const w of work) {
      const ids = await devicesToCompute(tx, w.month, w.ids ?? [], w.all_missing);
      if (ids.length === 0) continue;
      written += (await computeMonthEnds(tx, w.month, ids, settings)).stored;
    }
    return { devices, written };
  });
}

/** The queued devices of a month, plus (when some lack one) the devices in service without a value for it. */
async function devicesToCompute(tx: Queryable, month: string, queued: number[], anyMissing: boolean) {
  if (!anyMissing) return queued;
  const { rows } = await tx.query<{ id: number }>(
    `SELECT d.id FROM device d
      WHERE coalesce(d.installed_at, '-infinity') < ($1::date + interval '1 month')::timestamp::timestamptz
        AND coalesce(d.removed_at, 'infinity') >= ($1::date + interval '1 month')::timestamp::timestamptz
        AND NOT EXISTS (SELECT FROM month_end me WHERE me.device_id = d.id AND me.month = $1::date)
        -- A device without any reading before the month end has nothing to start from.
        AND EXISTS (SELECT FROM reading r WHERE r.device_id = d.id
                      AND r.ts < ($1::date + interval '1 month')::timestamp::timestamptz)`,
    [month],
  );
  return [...new Set([...queued, ...rows.map((r) => r.id)])];
}

/** Computes one month for every device in service (the benchmark's "one month from scratch"). */
export async function computeMonthForAll(db: Db, month: string, settings?: DqSettings) {
  return db.transaction(async (tx) => computeMonthEnds(tx, month, null, settings ?? (await loadSettings(tx))));
}

import type { Db, Queryable } from '../../db/db.js';
import { firstOpenMonth } from '../declarations/recalc.js';
import { computeMoveValues, refreshMoveValues } from '../occupancies/move-values.js';
import { type DqSettings, loadSettings } from '../settings.js';
import { computeMonthEnds, computeMonthEndsBackward } from './month-ends.js';

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
 *   a reading in service gets one (a new month, a new device, catching up after
 *   downtime). The every-minute run takes only the queue.
 *
 * A declared meter's estimated month ends before the first month a late declaration may still
 * recalculate (`declarations.recalcMonths` back from `now`) are kept (docs/declared-readings.md).
 * Months are computed in ascending order (estimates build on the month before),
 * then, in descending order, the month ends before a device's first reading
 * (estimated backwards, each from the month end after it). Then the moving-day values of the
 * queued devices (every move in the hourly run) are computed again.
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
       ), taken AS MATERIALIZED (
         SELECT * FROM unnest($1::int[], $2::date[]) AS t(device_id, month)
       ), queued AS MATERIALIZED (
         SELECT * FROM taken
         UNION
         -- What a new reading may value better: an interpolated month end whose readings bracket its month,
         -- a month end estimated forward (index month_end_revisit)...
         SELECT me.device_id, me.month FROM taken t JOIN month_end me ON me.device_id = t.device_id
          WHERE (me.source = 'interpolated' OR (me.source = 'estimated' AND coalesce(me.method, '') NOT LIKE 'backward%'))
            AND (me.source = 'estimated'
                 OR t.month BETWEEN date_trunc('month', me.reading_ts)::date AND date_trunc('month', me.next_ts)::date)
         UNION
         -- ... and, for a reading before the device's first one (the month end before it is estimated backwards),
         -- every month end estimated backwards.
         -- (LATERAL … LIMIT 1: one primary-key probe per queued row, never a scan of month_end.)
         SELECT x.device_id, x.month FROM taken t
          CROSS JOIN LATERAL (SELECT 1 FROM month_end prev WHERE prev.device_id = t.device_id
                                AND prev.month = (t.month - interval '1 month')::date AND prev.method LIKE 'backward%'
                              LIMIT 1) p
          CROSS JOIN LATERAL (SELECT me.device_id, me.month FROM month_end me
                               WHERE me.device_id = t.device_id AND me.method LIKE 'backward%') x
       ), by_month AS (
         SELECT q.month, array_agg(DISTINCT q.device_id) AS ids FROM queued q GROUP BY q.month
       ), months AS (
         SELECT generate_series(lim.first, lim.last, interval '1 month')::date AS month FROM lim
       )
       SELECT m.month::text AS month,
              b.ids,
              $5::boolean AND EXISTS (
                SELECT FROM device d
                 WHERE coalesce(d.installed_at, '-infinity') < (m.month + interval '1 month')::timestamp::timestamptz
                   AND coalesce(d.removed_at, 'infinity') >= (m.month + interval '1 month')::timestamp::timestamptz
                   AND NOT EXISTS (SELECT FROM month_end me WHERE me.device_id = d.id AND me.month = m.month)
                   AND EXISTS (SELECT FROM reading r WHERE r.device_id = d.id
                                 AND r.ts >= coalesce(d.installed_at, '-infinity')
                                 AND r.ts <= coalesce(d.removed_at, 'infinity'))
              ) AS all_missing
         FROM months m LEFT JOIN by_month b ON b.month = m.month
        ORDER BY m.month`,
      [taken.map((r) => r.device_id), taken.map((r) => r.month), now, settings['monthEnd.keepMonths'], ensure],
    );
    const firstOpen = await firstOpenMonth(tx, now, settings['declarations.recalcMonths']);
    let written = 0;
    const backward: { month: string; ids: number[] }[] = [];
    for (const w of work) {
      const ids = await devicesToCompute(tx, w.month, w.ids ?? [], w.all_missing);
      if (ids.forward.length) written += (await computeMonthEnds(tx, w.month, ids.forward, settings, firstOpen)).stored;
      if (ids.backward.length) backward.push({ month: w.month, ids: ids.backward });
    }
    // Then, latest first, the month ends before a device's first reading (each counts back from the one after).
    for (const b of backward.reverse()) written += (await computeMonthEndsBackward(tx, b.month, b.ids)).stored;
    // The moving-day values (docs/occupancies.md) of the queued devices, after the month ends their estimates
    // start from; the hourly run values every move (a device added since, a register import's moves).
    if (ensure) await computeMoveValues(tx, { flatIds: null });
    else await refreshMoveValues(tx, devices);
    // A catch-up may write many rows: fresh statistics keep the rules' plans on month_end sound.
    if (written > 5000) await tx.exec('ANALYZE month_end');
    return { devices, written };
  });
}

/**
 * The queued devices of a month, plus (when some lack one) the devices in service without a value
 * for it: those with a reading before the month end are computed forward, those whose readings all
 * come after it backward (the queued ones both ways: each statement takes only what it can value).
 */
async function devicesToCompute(tx: Queryable, month: string, queued: number[], anyMissing: boolean) {
  if (!anyMissing) return { forward: queued, backward: queued };
  const { rows } = await tx.query<{ id: number; before: boolean }>(
    `SELECT d.id, f.ts <= ($1::date + interval '1 month')::timestamp::timestamptz AS before FROM device d
       -- The first reading in service (a device without any has nothing to start from: listed as missing).
       JOIN LATERAL (SELECT r.ts FROM reading r WHERE r.device_id = d.id
                       AND r.ts >= coalesce(d.installed_at, '-infinity') AND r.ts <= coalesce(d.removed_at, 'infinity')
                     ORDER BY r.ts LIMIT 1) f ON true
      WHERE coalesce(d.installed_at, '-infinity') < ($1::date + interval '1 month')::timestamp::timestamptz
        AND coalesce(d.removed_at, 'infinity') >= ($1::date + interval '1 month')::timestamp::timestamptz
        AND NOT EXISTS (SELECT FROM month_end me WHERE me.device_id = d.id AND me.month = $1::date)`,
    [month],
  );
  const ids = (before: boolean) => [
    ...new Set([...queued, ...rows.filter((r) => r.before === before).map((r) => r.id)]),
  ];
  return { forward: ids(true), backward: ids(false) };
}

/** Computes one month for every device in service (the benchmark's "one month from scratch"). */
export async function computeMonthForAll(db: Db, month: string, settings?: DqSettings) {
  return db.transaction(async (tx) => {
    const r = await computeMonthEnds(tx, month, null, settings ?? (await loadSettings(tx)));
    const back = await computeMonthEndsBackward(tx, month, null);
    return { stored: r.stored + back.stored, estimated: r.estimated + back.stored };
  });
}

import type { Queryable } from '../../db/db.js';
import { boundaryValueUpsert } from '../boundary-values.js';
import { loadSettings } from '../settings.js';
import { cityIdOf } from '../sql.js';

/**
 * The moving days of flats (flat_id, day): a MoveIn that follows another occupancy of the same
 * flat (the day the previous occupant moved out), for the flats `flatFilter` (SQL on `o.location_id`) keeps.
 */
export const movesSql = (flatFilter: string) => `
  SELECT DISTINCT o.location_id AS flat_id, o.move_in AS day
    FROM occupancy o
   WHERE o.move_in IS NOT NULL AND (${flatFilter})
     AND EXISTS (SELECT FROM occupancy p WHERE p.location_id = o.location_id AND p.move_out = o.move_in)`;

/** The moving days of the flats `$1` (ids), or of every flat when it is null. */
export const MOVES_SQL = movesSql('$1::int[] IS NULL OR o.location_id = ANY ($1::int[])');

/**
 * Computes and stores the moving-day values (table `move_value`, docs/occupancies.md) of the
 * given flats' moves (null = every flat), or only of the given devices: each device in service at
 * D 00:00 (the boundary instant; a reading stamped exactly then is the state there: it ends D-1 and
 * starts D) gets a value chosen as a month end is (docs/data-quality.md), in order:
 *
 * 1. measured: the latest reading at or before D 00:00, at most `monthEnd.toleranceDays` old;
 * 2. memory: the meter's own value for D-1 or D (`device_memory`);
 * 3. interpolated: between the reading before and the first after, by time, or for allocators by
 *    heating degree-days when the flat's city has them for every month of the gap;
 * 4. estimated: between the latest value before D (a reading since D's month began, else the month
 *    end before it) and the earliest after D (a reading before D's month ends, else its month end) in
 *    proportion to time (`month_end_prorated`), never below the one before; else the one before
 *    carried forward (`carried_forward`): a cumulative register never falls.
 *
 * Manual values stay; a value or source that changes keeps what it replaced. Index probes per
 * device, never a scan of the readings.
 */
export async function computeMoveValues(
  db: Queryable,
  scope: { flatIds?: number[] | null; deviceIds?: number[] },
): Promise<number> {
  const settings = await loadSettings(db);
  const r = await db.query(
    `WITH moves AS (${MOVES_SQL}
     ), dev AS (
       SELECT d.id, t.data_load_proc AS kind, ${cityIdOf('l')} AS city, mv.day,
              mv.day::timestamp::timestamptz AS e, d.installed_at, d.removed_at
         FROM moves mv
         JOIN device d ON d.location_id = mv.flat_id
         JOIN device_type t ON t.id = d.device_type_id
         JOIN location l ON l.id = d.location_id
        WHERE ($2::int[] IS NULL OR d.id = ANY ($2::int[]))
          AND coalesce(d.installed_at, '-infinity') <= mv.day::timestamp::timestamptz
          AND coalesce(d.removed_at, 'infinity') >= mv.day::timestamp::timestamptz
     ), c AS (
       SELECT dev.*, b.ts AS b_ts, b.value AS b_v, a.ts AS a_ts, a.value AS a_v, m.value AS m_v,
              pme.value AS pme_v, nme.value AS nme_v,
              date_trunc('month', dev.day)::timestamp::timestamptz AS ms,
              (date_trunc('month', dev.day) + interval '1 month')::timestamp::timestamptz AS me
         FROM dev
         LEFT JOIN LATERAL (
           SELECT r.ts, r.value FROM reading r
            WHERE r.device_id = dev.id AND r.ts <= dev.e AND r.ts >= coalesce(dev.installed_at, '-infinity')
            ORDER BY r.ts DESC LIMIT 1) b ON true
         LEFT JOIN LATERAL (
           SELECT r.ts, r.value FROM reading r
            WHERE r.device_id = dev.id AND r.ts > dev.e AND r.ts <= coalesce(dev.removed_at, 'infinity')
            ORDER BY r.ts LIMIT 1) a ON true
         LEFT JOIN LATERAL (
           SELECT dm.value FROM device_memory dm
            WHERE dm.device_id = dev.id AND dm.day IN (dev.day - 1, dev.day)
            ORDER BY dm.day DESC LIMIT 1) m ON true
         -- The month ends around D: the end of the month before D's month, and of D's month.
         LEFT JOIN month_end pme ON pme.device_id = dev.id
                                AND pme.month = (date_trunc('month', dev.day) - interval '1 month')::date
         LEFT JOIN month_end nme ON nme.device_id = dev.id AND nme.month = date_trunc('month', dev.day)::date
     ), chosen AS (
       SELECT c.*,
              CASE WHEN c.b_ts IS NOT NULL AND c.e - c.b_ts <= make_interval(secs => $3::float8 * 86400) THEN 'measured'
                   WHEN c.m_v IS NOT NULL THEN 'memory'
                   WHEN c.b_ts IS NOT NULL AND c.a_ts IS NOT NULL THEN 'interpolated'
                   WHEN c.pme_v IS NOT NULL OR c.b_ts IS NOT NULL THEN 'estimated' END AS source,
              -- The latest value before D (lo): a reading since D's month began, else the month end before it,
              -- else the last reading; the earliest after D (hi): a reading before D's month ends, else its
              -- month end, else a later reading. A cumulative register never falls (docs/occupancies.md).
              CASE WHEN c.b_ts IS NOT NULL AND (c.pme_v IS NULL OR c.b_ts > c.ms) THEN c.b_ts
                   WHEN c.pme_v IS NOT NULL THEN c.ms END AS lo_ts,
              CASE WHEN c.b_ts IS NOT NULL AND (c.pme_v IS NULL OR c.b_ts > c.ms) THEN c.b_v ELSE c.pme_v END AS lo_v,
              CASE WHEN c.a_ts IS NOT NULL AND (c.nme_v IS NULL OR c.a_ts < c.me) THEN c.a_ts
                   WHEN c.nme_v IS NOT NULL THEN c.me END AS hi_ts,
              CASE WHEN c.a_ts IS NOT NULL AND (c.nme_v IS NULL OR c.a_ts < c.me) THEN c.a_v ELSE c.nme_v END AS hi_v
         FROM c
     ), valued AS (
       SELECT ch.id, ch.day, ch.source,
              CASE ch.source
                WHEN 'measured' THEN ch.b_v
                WHEN 'memory' THEN ch.m_v
                WHEN 'interpolated' THEN round(ch.b_v + (ch.a_v - ch.b_v) * coalesce(dd.share,
                       (extract(epoch FROM ch.e - ch.b_ts) / extract(epoch FROM ch.a_ts - ch.b_ts))::numeric), 3)
                -- Never below the value before D, even when the one after is an estimate lower than a reading.
                ELSE CASE WHEN ch.hi_ts IS NOT NULL
                          THEN greatest(ch.lo_v, round(ch.lo_v + (ch.hi_v - ch.lo_v)
                                 * (extract(epoch FROM ch.e - ch.lo_ts) / extract(epoch FROM ch.hi_ts - ch.lo_ts))::numeric, 3))
                          ELSE ch.lo_v END
              END AS value,
              CASE WHEN ch.source IN ('measured', 'interpolated') THEN ch.b_ts END AS reading_ts,
              CASE WHEN ch.source = 'interpolated' THEN ch.a_ts END AS next_ts,
              CASE ch.source
                WHEN 'interpolated' THEN CASE WHEN dd.share IS NULL THEN 'time' ELSE 'degree_days' END
                WHEN 'estimated' THEN CASE WHEN ch.hi_ts IS NOT NULL THEN 'month_end_prorated' ELSE 'carried_forward' END
              END AS method
         FROM chosen ch
         -- Allocators: the share of the gap's heating degree-days before D (as for a month end).
         LEFT JOIN LATERAL (
           SELECT (sum(h.value) FILTER (WHERE h.day < ch.day) / sum(h.value)) AS share
             FROM (SELECT g.day::date AS day,
                          dd.value / extract(day FROM date_trunc('month', g.day) + interval '1 month - 1 day') AS value
                     FROM generate_series(ch.b_ts::date::timestamp, ch.a_ts::date::timestamp, interval '1 day') g (day)
                     JOIN degree_days dd ON dd.city_id = ch.city AND dd.month = date_trunc('month', g.day)::date) h
            WHERE ch.kind = 'allocator' AND ch.source = 'interpolated'
           HAVING count(*) = ch.a_ts::date - ch.b_ts::date + 1 AND sum(h.value) > 0) dd ON true
        WHERE ch.source IS NOT NULL
     )
     ${boundaryValueUpsert('move_value', 'day')}`,
    [scope.flatIds ?? null, scope.deviceIds ?? null, settings['monthEnd.toleranceDays']],
  );
  return r.rowCount;
}

/**
 * After new readings of `deviceIds` (the data-quality queue): their moving-day values that are
 * not measured nor manual are computed again, so a late reading replaces an interpolation or an
 * estimate. Values no longer backed by a move (an occupancy changed) are dropped first.
 */
export async function refreshMoveValues(db: Queryable, deviceIds: number[]): Promise<number> {
  if (!deviceIds.length) return 0;
  const { rows } = await db.query<{ location_id: number }>(
    `SELECT DISTINCT d.location_id FROM move_value mv JOIN device d ON d.id = mv.device_id
      WHERE mv.device_id = ANY ($1::int[])`,
    [deviceIds],
  );
  if (!rows.length) return 0;
  return computeMoveValues(db, { flatIds: rows.map((r) => r.location_id), deviceIds });
}

/** Drops the moving-day values of flats that no longer fall on a move (an occupancy changed); manual ones too. */
export async function dropStaleMoveValues(db: Queryable, flatIds: number[]): Promise<void> {
  await db.query(
    `DELETE FROM move_value mv USING device d
      WHERE d.id = mv.device_id AND d.location_id = ANY ($1::int[])
        AND mv.day NOT IN (SELECT day FROM (${MOVES_SQL}) m WHERE m.flat_id = d.location_id)`,
    [flatIds],
  );
}

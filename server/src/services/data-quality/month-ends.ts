import { DEVICE_TYPE, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { boundaryValueUpsert } from '../boundary-values.js';
import { readNowSql } from '../lifetime/device-dates.js';
import type { DqSettings } from '../settings.js';
import { buildingIdOf, cityIdOf } from '../sql.js';

/**
 * Computes the month-end values of one month for the given devices (null = every
 * device in service at that month end) and stores them (table `month_end`,
 * migration 060; docs/data-quality.md). The month end is the first instant of
 * the next month in the provider's zone (the session's), DST included; a reading
 * stamped exactly then is the state at that boundary and belongs to the month
 * that ended (the midnight rule, docs/domain.md §5). Per device, in order:
 *
 * 1. measured: the latest reading at or before the month end, if at most
 *    `monthEnd.toleranceDays` old;
 * 2. memory: the value the meter stored for the month's last day or the next
 *    month's first day (set-day and monthly history values, `device_memory`);
 * 3. interpolated: between the last reading before and the first after it, by
 *    time, or for allocators by heating degree-days when every day is known;
 * 4. estimated: the later of the previous month end and the last reading plus (a meter the occupant
 *    declares) its average monthly consumption of the 12 months before, else the same
 *    month last year scaled by the recent trend, else the building's average
 *    consumption of that type in that month (per m² where flat areas are known),
 *    else nothing more (the value carried forward).
 *
 * Manual values are never replaced. A row whose value or source changes keeps
 * the previous value and source, and when it changed. With `firstOpen` (the recalculation cap,
 * docs/declared-readings.md, "Late declarations"): a declared meter's estimated or interpolated month
 * end of a month before it is kept as it is. Index probes per device
 * (the reading primary key), never a scan of the readings. Months must be
 * computed in ascending order, as estimates use the earlier month ends.
 */
export async function computeMonthEnds(
  db: Queryable,
  month: string,
  deviceIds: number[] | null,
  settings: Pick<DqSettings, 'monthEnd.toleranceDays'>,
  firstOpen: string | null = null,
): Promise<{ stored: number; estimated: number }> {
  const direct = await db.query(
    `WITH p AS (
       SELECT $2::date AS month, ($2::date + interval '1 month')::timestamp::timestamptz AS e,
              make_interval(secs => $3::float8 * 86400) AS tolerance
     ), dev AS (
       SELECT d.id, d.installed_at, d.removed_at, t.data_load_proc AS kind, ${cityIdOf('l')} AS city
         FROM device d JOIN device_type t ON t.id = d.device_type_id JOIN location l ON l.id = d.location_id
         LEFT JOIN device_status ds ON ds.device_id = d.id, p
        WHERE ($1::int[] IS NULL OR d.id = ANY ($1::int[]))
          AND coalesce(d.installed_at, '-infinity') < p.e AND coalesce(d.removed_at, 'infinity') >= p.e
          AND ${KEPT_BY_CAP('$4')}
     ), c AS (
       SELECT dev.id, dev.kind, dev.city, p.month, p.e, p.tolerance, b.ts AS b_ts, b.value AS b_v, a.ts AS a_ts, a.value AS a_v,
              m.value AS m_v
         FROM dev CROSS JOIN p
         LEFT JOIN LATERAL (
           SELECT r.ts, r.value FROM reading r
            WHERE r.device_id = dev.id AND r.ts <= p.e AND r.ts >= coalesce(dev.installed_at, '-infinity')
            ORDER BY r.ts DESC LIMIT 1) b ON true
         LEFT JOIN LATERAL (
           SELECT r.ts, r.value FROM reading r
            WHERE r.device_id = dev.id AND r.ts > p.e AND r.ts <= coalesce(dev.removed_at, 'infinity')
            ORDER BY r.ts LIMIT 1) a ON true
         LEFT JOIN LATERAL (
           SELECT dm.value FROM device_memory dm
            WHERE dm.device_id = dev.id AND dm.day IN ((p.e - interval '1 day')::date, p.e::date)
            ORDER BY dm.day DESC LIMIT 1) m ON true
     ), chosen AS (
       SELECT c.id, c.month,
              CASE WHEN c.b_ts IS NOT NULL AND c.e - c.b_ts <= c.tolerance THEN 'measured'
                   WHEN c.m_v IS NOT NULL THEN 'memory'
                   WHEN c.b_ts IS NOT NULL AND c.a_ts IS NOT NULL THEN 'interpolated' END AS source,
              c.b_ts, c.a_ts, c.b_v, c.a_v, c.m_v, c.e, c.kind, c.city
         FROM c
     ), valued AS (
       SELECT ch.id, ch.month, ch.source,
              CASE ch.source
                WHEN 'measured' THEN ch.b_v
                WHEN 'memory' THEN ch.m_v
                ELSE round(ch.b_v + (ch.a_v - ch.b_v) * coalesce(dd.share,
                       (extract(epoch FROM ch.e - ch.b_ts) / extract(epoch FROM ch.a_ts - ch.b_ts))::numeric), 3)
              END AS value,
              CASE WHEN ch.source IN ('measured', 'interpolated') THEN ch.b_ts END AS reading_ts,
              CASE WHEN ch.source = 'interpolated' THEN ch.a_ts END AS next_ts,
              CASE WHEN ch.source = 'interpolated' THEN CASE WHEN dd.share IS NULL THEN 'time' ELSE 'degree_days' END END
                AS method
         FROM chosen ch
         -- Allocators: the share of the gap's heating degree-days that fell before the month end (whole days;
         -- each month's value of the flat's city spread evenly over its days).
         LEFT JOIN LATERAL (
           SELECT (sum(h.value) FILTER (WHERE h.day < ch.e::date) / sum(h.value)) AS share
             FROM (SELECT g.day::date AS day,
                          dd.value / extract(day FROM date_trunc('month', g.day) + interval '1 month - 1 day') AS value
                     FROM generate_series(ch.b_ts::date::timestamp, ch.a_ts::date::timestamp, interval '1 day') g (day)
                     JOIN degree_days dd ON dd.city_id = ch.city AND dd.month = date_trunc('month', g.day)::date) h
            WHERE ch.kind = 'allocator' AND ch.source = 'interpolated'
           HAVING count(*) = ch.a_ts::date - ch.b_ts::date + 1 AND sum(h.value) > 0) dd ON true
        WHERE ch.source IS NOT NULL
     )
     ${UPSERT}`,
    [deviceIds, month, settings['monthEnd.toleranceDays'], firstOpen],
  );
  const estimated = await db.query(
    `WITH p AS (
       SELECT $2::date AS month, ($2::date + interval '1 month')::timestamp::timestamptz AS e,
              $2::date::timestamp::timestamptz AS s
     ), dev AS (
       SELECT d.id, d.installed_at, d.device_type_id, ${buildingIdOf('l')} AS building, l.area_m2,
              -- A meter marked as read by hand, which the occupant declares (docs/declared-readings.md):
              -- its own 12-month average. Unmarked devices keep the estimates below.
              ${DECLARED_METER} AS declared
         FROM device d JOIN location l ON l.id = d.location_id LEFT JOIN device_status ds ON ds.device_id = d.id, p
        WHERE ($1::int[] IS NULL OR d.id = ANY ($1::int[]))
          AND coalesce(d.installed_at, '-infinity') < p.e AND coalesce(d.removed_at, 'infinity') >= p.e
          AND ${KEPT_BY_CAP('$3')}
          -- Only what the first statement could not value (or an operator set by hand).
          AND NOT EXISTS (SELECT FROM month_end me WHERE me.device_id = d.id AND me.month = p.month
                           AND me.source <> 'estimated')
     ), base AS (
       -- What the estimate starts from: the later of the previous month end and the last reading before the
       -- month end (a reading taken in the month: a cumulative register never falls below it).
       SELECT dev.*, p.month, p.e, p.s,
              CASE WHEN prev.value IS NULL OR b.ts > p.s THEN b.value ELSE prev.value END AS base_v,
              CASE WHEN prev.value IS NULL OR b.ts > p.s THEN extract(epoch FROM p.e - b.ts) / extract(epoch FROM p.e - p.s)
                   ELSE 1 END AS fraction
         FROM dev CROSS JOIN p
         -- Not from a month end estimated backwards (docs/data-quality.md): that one counts back from later readings.
         LEFT JOIN month_end prev ON prev.device_id = dev.id AND prev.month = (p.month - interval '1 month')::date
                                 AND coalesce(prev.method, '') NOT LIKE 'backward%'
         LEFT JOIN LATERAL (
           SELECT r.ts, r.value FROM reading r
            WHERE r.device_id = dev.id AND r.ts <= p.e AND r.ts >= coalesce(dev.installed_at, '-infinity')
            ORDER BY r.ts DESC LIMIT 1) b ON true
     ), hist AS (
       -- The device's own month ends: last year's month, and the trend of the last three months against a year before.
       SELECT base.id,
              (SELECT max(value) FILTER (WHERE month = (base.month - interval '12 months')::date)
                    - max(value) FILTER (WHERE month = (base.month - interval '13 months')::date)
                    AS last_year
                 FROM month_end WHERE device_id = base.id
                  AND month IN ((base.month - interval '12 months')::date, (base.month - interval '13 months')::date)),
              (SELECT (max(value) FILTER (WHERE month = (base.month - interval '1 month')::date)
                     - max(value) FILTER (WHERE month = (base.month - interval '4 months')::date))
                    / nullif(max(value) FILTER (WHERE month = (base.month - interval '13 months')::date)
                     - max(value) FILTER (WHERE month = (base.month - interval '16 months')::date), 0)
                 FROM month_end WHERE device_id = base.id
                  AND month IN ((base.month - interval '1 month')::date, (base.month - interval '4 months')::date,
                                (base.month - interval '13 months')::date, (base.month - interval '16 months')::date))
                AS trend,
              -- A declared meter's average monthly consumption over the (up to) 12 month ends before.
              CASE WHEN base.declared THEN (
                SELECT (max(value) FILTER (WHERE month = (base.month - interval '1 month')::date) - min(value))
                         / nullif((extract(year FROM age((base.month - interval '1 month')::date, min(month))) * 12
                                   + extract(month FROM age((base.month - interval '1 month')::date, min(month))))::numeric, 0)
                  FROM (SELECT month, value, min(month) OVER () AS first FROM month_end WHERE device_id = base.id
                           AND month BETWEEN (base.month - interval '13 months')::date
                                         AND (base.month - interval '1 month')::date) m
                 WHERE month = first OR month = (base.month - interval '1 month')::date) END AS avg12
         FROM base
     ), peers AS (
       -- The building's devices of the same type with a real month's consumption (neither end estimated nor manual).
       SELECT ${buildingIdOf('l')} AS building, d.device_type_id, avg(cur.value - prev.value) AS avg_cons,
              sum(cur.value - prev.value) FILTER (WHERE l.area_m2 IS NOT NULL)
                / nullif(sum(l.area_m2) FILTER (WHERE l.area_m2 IS NOT NULL), 0) AS per_m2
         FROM p
         JOIN month_end cur ON cur.month = p.month AND cur.source IN ('measured', 'memory', 'interpolated')
         JOIN month_end prev ON prev.device_id = cur.device_id AND prev.month = (p.month - interval '1 month')::date
                            AND prev.source IN ('measured', 'memory', 'interpolated')
         JOIN device d ON d.id = cur.device_id
         JOIN location l ON l.id = d.location_id
        WHERE (${buildingIdOf('l')}, d.device_type_id) IN (SELECT building, device_type_id FROM base)
          AND d.role IS NULL -- a building's hot-water input meter is no peer of its flats' (docs/heat-method.md)
          AND cur.value >= prev.value
        GROUP BY 1, 2
     ), valued AS (
       SELECT base.id, base.month, 'estimated' AS source,
              round(base.base_v + greatest(0, base.fraction::numeric * CASE
                WHEN h.avg12 IS NOT NULL THEN h.avg12
                WHEN h.last_year IS NOT NULL THEN greatest(h.last_year, 0) * least(greatest(coalesce(h.trend, 1), 0.5), 2)
                WHEN pe.per_m2 IS NOT NULL AND base.area_m2 IS NOT NULL THEN pe.per_m2 * base.area_m2
                WHEN pe.avg_cons IS NOT NULL THEN pe.avg_cons
                ELSE 0 END), 3) AS value,
              NULL::timestamptz AS reading_ts, NULL::timestamptz AS next_ts,
              CASE WHEN h.avg12 IS NOT NULL THEN 'average_12_months'
                   WHEN h.last_year IS NOT NULL THEN 'last_year_trend'
                   WHEN pe.per_m2 IS NOT NULL AND base.area_m2 IS NOT NULL THEN 'building_average_m2'
                   WHEN pe.avg_cons IS NOT NULL THEN 'building_average'
                   ELSE 'carried_forward' END AS method
         FROM base JOIN hist h USING (id)
         LEFT JOIN peers pe ON pe.building = base.building AND pe.device_type_id = base.device_type_id
                           AND NOT EXISTS (SELECT FROM device rd WHERE rd.id = base.id AND rd.role IS NOT NULL)
        WHERE base.base_v IS NOT NULL
     )
     ${UPSERT}`,
    [deviceIds, month, firstOpen],
  );
  return { stored: direct.rowCount + estimated.rowCount, estimated: estimated.rowCount };
}

/**
 * Month ends before a device's first reading (installed without an initial
 * reading, its first telegram late; docs/data-quality.md): estimated backwards
 * from what follows. For a device in service at the month end with no reading
 * before it but one after, the value is the first reading (when it falls in the
 * next month) or the device's next month end, minus the building's average
 * consumption of the type in the next month (per m² where flat areas are known;
 * the month before when the next has none yet), prorated to the part of that
 * month up to the reading; never below 0; with no peers, the first reading
 * carried back. Months must be computed in descending order (each builds on the
 * month end after it), after the ascending pass of `computeMonthEnds`.
 */
export async function computeMonthEndsBackward(
  db: Queryable,
  month: string,
  deviceIds: number[] | null,
): Promise<{ stored: number }> {
  const r = await db.query(
    `WITH p AS (
       SELECT $2::date AS month, ($2::date + interval '1 month')::timestamp::timestamptz AS e,
              ($2::date + interval '2 months')::timestamp::timestamptz AS e2
     ), dev AS (
       SELECT d.id, d.installed_at, d.removed_at, d.device_type_id, ${buildingIdOf('l')} AS building, l.area_m2
         FROM device d JOIN location l ON l.id = d.location_id, p
        WHERE ($1::int[] IS NULL OR d.id = ANY ($1::int[]))
          AND coalesce(d.installed_at, '-infinity') < p.e AND coalesce(d.removed_at, 'infinity') >= p.e
          AND NOT EXISTS (SELECT FROM month_end me WHERE me.device_id = d.id AND me.month = p.month
                           AND me.source <> 'estimated')
          -- A month end before it that is not itself a backward estimate (e.g. manual): the forward estimate's.
          AND NOT EXISTS (SELECT FROM month_end pm WHERE pm.device_id = d.id
                           AND pm.month = (p.month - interval '1 month')::date
                           AND coalesce(pm.method, '') NOT LIKE 'backward%')
     ), base AS (
       -- Its first reading in service is after the month end. What the estimate counts back from: that reading
       -- if it falls in the next month, else the next month end.
       SELECT dev.*, p.month, f.ts AS f_ts,
              CASE WHEN f.ts <= p.e2 THEN f.value ELSE nxt.value END AS base_v,
              CASE WHEN f.ts <= p.e2 THEN extract(epoch FROM f.ts - p.e) / extract(epoch FROM p.e2 - p.e) ELSE 1 END
                AS fraction
         FROM dev CROSS JOIN p
         JOIN LATERAL (
           SELECT r.ts, r.value FROM reading r
            WHERE r.device_id = dev.id AND r.ts >= coalesce(dev.installed_at, '-infinity')
              AND r.ts <= coalesce(dev.removed_at, 'infinity')
            ORDER BY r.ts LIMIT 1) f ON f.ts > p.e
         LEFT JOIN month_end nxt ON nxt.device_id = dev.id AND nxt.month = (p.month + interval '1 month')::date
        WHERE f.ts <= p.e2 OR nxt.value IS NOT NULL
     ), peers AS (
       -- The building's devices of the type with a real consumption (neither end estimated nor manual) in the
       -- next month (k = 1), else in the month before the month end (k = 0).
       SELECT ${buildingIdOf('l')} AS building, d.device_type_id, k.k, avg(cur.value - prev.value) AS avg_cons,
              sum(cur.value - prev.value) FILTER (WHERE l.area_m2 IS NOT NULL)
                / nullif(sum(l.area_m2) FILTER (WHERE l.area_m2 IS NOT NULL), 0) AS per_m2
         FROM p CROSS JOIN (VALUES (0), (1)) k (k)
         JOIN month_end cur ON cur.month = (p.month + make_interval(months => k.k))::date
                           AND cur.source IN ('measured', 'memory', 'interpolated')
         JOIN month_end prev ON prev.device_id = cur.device_id
                            AND prev.month = (p.month + make_interval(months => k.k - 1))::date
                            AND prev.source IN ('measured', 'memory', 'interpolated')
         JOIN device d ON d.id = cur.device_id
         JOIN location l ON l.id = d.location_id
        WHERE (${buildingIdOf('l')}, d.device_type_id) IN (SELECT building, device_type_id FROM base)
          AND d.role IS NULL -- a building's hot-water input meter is no peer of its flats' (docs/heat-method.md)
          AND cur.value >= prev.value
        GROUP BY 1, 2, 3
     ), peer AS (
       SELECT DISTINCT ON (building, device_type_id) * FROM peers ORDER BY building, device_type_id, k DESC
     ), valued AS (
       SELECT base.id, base.month, 'estimated' AS source,
              round(greatest(0, base.base_v - base.fraction::numeric * CASE
                WHEN pe.per_m2 IS NOT NULL AND base.area_m2 IS NOT NULL THEN pe.per_m2 * base.area_m2
                WHEN pe.avg_cons IS NOT NULL THEN pe.avg_cons
                ELSE 0 END), 3) AS value,
              NULL::timestamptz AS reading_ts, base.f_ts AS next_ts,
              CASE WHEN pe.per_m2 IS NOT NULL AND base.area_m2 IS NOT NULL THEN 'backward_building_average_m2'
                   WHEN pe.avg_cons IS NOT NULL THEN 'backward_building_average'
                   ELSE 'backward_first_reading' END AS method
         FROM base
         LEFT JOIN peer pe ON pe.building = base.building AND pe.device_type_id = base.device_type_id
                           AND NOT EXISTS (SELECT FROM device rd WHERE rd.id = base.id AND rd.role IS NOT NULL)
        WHERE base.base_v IS NOT NULL
     )
     ${UPSERT}`,
    [deviceIds, month],
  );
  return { stored: r.rowCount };
}

const UPSERT = boundaryValueUpsert('month_end', 'month');

/**
 * A meter marked as read by hand, which the occupant declares (docs/declared-readings.md), of
 * `device d`, its `location l` and `device_status ds`.
 */
export const DECLARED_METER = `(l.level = ${LOCATION_LEVEL.flat} AND d.read_method = 'manual'
  AND d.device_type_id IN (${DEVICE_TYPE.heatMeter}, ${DEVICE_TYPE.coldWaterMeter}, ${DEVICE_TYPE.hotWaterMeter})
  AND ${readNowSql('d', 'ds')} = 'manual')`;

/**
 * The recalculation cap (docs/declared-readings.md, "Late declarations"): false for a declared meter
 * whose month `p.month`, before the first open month (the parameter; null: no cap), has an estimated or
 * interpolated month end: that one is kept.
 */
const KEPT_BY_CAP = (firstOpen: string) => `NOT (${firstOpen}::date IS NOT NULL AND p.month < ${firstOpen}::date
  AND ${DECLARED_METER}
  AND EXISTS (SELECT FROM month_end k WHERE k.device_id = d.id AND k.month = p.month
                AND k.source IN ('estimated', 'interpolated')))`;

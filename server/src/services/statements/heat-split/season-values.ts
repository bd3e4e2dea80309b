import { DEVICE_TYPE, type HeatMethodVersion } from '@rodmenys/contract';
import type { Queryable } from '../../../db/db.js';
import { type DqSettings, loadSettings } from '../../settings.js';
import { monthBefore } from '../months.js';
import { methodOf, seasonDayKey } from './from-parts.js';
import { splitDays } from './periods.js';

/*
 * The input meter's energy from a month's start up to a day the heating season starts or ends
 * inside it (docs/heat-method.md, "A month the season starts or ends in"): its value at that day
 * 00:00 less the month end before. The value at the day: measured (the latest reading at or before
 * it, within the month ends' tolerance), else interpolated by time between the readings around it.
 * Nothing else: without one the month is incomplete.
 */

/**
 * Per building and season day (seasonDayKey) the input's energy from the month's start; null: unknown.
 * `settings`: the settings already being read (else read here when needed).
 */
export async function seasonDayEnergy(
  db: Queryable,
  versions: ReadonlyMap<number, readonly HeatMethodVersion[]>,
  computed: readonly string[],
  settings?: Promise<DqSettings>,
): Promise<Map<string, number | null>> {
  const wanted: { building: number; day: string; start: string }[] = [];
  for (const [building, list] of versions)
    for (const m of computed) {
      const method = methodOf(list.findLast((v) => v.ValidFrom <= m) ?? null);
      if (!method) continue;
      for (const day of splitDays(m, method.seasons)) wanted.push({ building, day, start: `${monthBefore(m)}-01` });
    }
  if (!wanted.length) return new Map();
  const tolerance = (await (settings ?? loadSettings(db)))['monthEnd.toleranceDays'];
  const { rows } = await db.query<{ building: number; day: string; energy: number | null }>(
    `WITH w AS (
       SELECT * FROM json_to_recordset($1::json) AS w(building int, day date, start date)
     ), dev AS (
       SELECT w.*, d.id, w.day::timestamp::timestamptz AS e FROM w
         JOIN device d ON d.location_id = w.building AND d.device_type_id = ${DEVICE_TYPE.buildingHeatMeter}
                        AND d.role IS NULL
        WHERE coalesce(d.installed_at, '-infinity') < w.day::timestamp::timestamptz
          AND coalesce(d.removed_at, 'infinity') >= w.day::timestamp::timestamptz
     ), v AS (
       SELECT dev.building, dev.day, me.value AS start_v,
              CASE WHEN b.ts IS NOT NULL AND dev.e - b.ts <= make_interval(secs => $2::float8 * 86400) THEN b.value
                   WHEN b.ts IS NOT NULL AND a.ts IS NOT NULL
                   THEN b.value + (a.value - b.value) * extract(epoch FROM dev.e - b.ts) / extract(epoch FROM a.ts - b.ts)
              END AS day_v
         FROM dev
         LEFT JOIN month_end me ON me.device_id = dev.id AND me.month = dev.start
         LEFT JOIN LATERAL (SELECT r.ts, r.value FROM reading r WHERE r.device_id = dev.id AND r.ts <= dev.e
                             ORDER BY r.ts DESC LIMIT 1) b ON true
         LEFT JOIN LATERAL (SELECT r.ts, r.value FROM reading r WHERE r.device_id = dev.id AND r.ts > dev.e
                             ORDER BY r.ts LIMIT 1) a ON true
     )
     SELECT building, day::text AS day,
            CASE WHEN bool_and(start_v IS NOT NULL AND day_v IS NOT NULL) THEN sum(day_v - start_v)::float8 END AS energy
       FROM v GROUP BY building, day`,
    [JSON.stringify(wanted), tolerance],
  );
  return new Map(rows.map((r) => [seasonDayKey(r.building, r.day), r.energy]));
}

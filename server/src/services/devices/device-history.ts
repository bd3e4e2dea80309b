import type { DeviceHistory, HistoryBucket, HistoryPoint } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { inScope } from '../sql.js';
import type { DayRange } from '../time.js';

export interface DeviceHistoryInput {
  deviceId: number;
  range: DayRange;
  /** The caller's scope (null = all). */
  scope: number[] | null;
  timeZone: string;
}

/** Chart resolution by period length: a few hundred points at most whatever the reading rate. */
export function historyBucket(range: DayRange): HistoryBucket {
  const days = (Date.parse(range.till) - Date.parse(range.from)) / 86_400_000 + 1;
  if (days <= 7) return 'hour';
  if (days <= 400) return 'day';
  if (days <= 1500) return 'week';
  return 'month';
}

/**
 * A device's readings over a period, downsampled per bucket in the provider's
 * zone: the last value, the consumption since the previous bucket (since the
 * period's start reading for the first one, as GetDevicesData counts it), and
 * the first and last reading times. The bounds are those of GetDevicesData,
 * so the consumptions add up to its Difference. One range scan of the
 * (device_id, ts) primary key. 404 outside the caller's scope.
 */
export async function getDeviceHistory(db: Queryable, input: DeviceHistoryInput): Promise<DeviceHistory> {
  const bucket = historyBucket(input.range);
  const { rows: devices } = await db.query<
    Omit<DeviceHistory, 'Bucket' | 'Start' | 'Points'> & {
      start_ts: string | null;
      start_v: number | null;
      start_exact: string | null;
    }
  >(
    `SELECT d.id AS "DeviceId", d.device_type_id AS "DeviceTypeId", d.device_code AS "DeviceCode",
            t.data_load_proc AS "DataLoadProc", iso(s.ts) AS start_ts, s.value::float8 AS start_v, s.value::text AS start_exact
       FROM device d JOIN location l ON l.id = d.location_id JOIN device_type t ON t.id = d.device_type_id
       LEFT JOIN LATERAL (
         SELECT r.ts, r.value FROM reading r
          WHERE r.device_id = d.id AND r.ts <= ($2::date::timestamp AT TIME ZONE $3)
            AND r.ts >= coalesce(d.installed_at, '-infinity')
          ORDER BY r.ts DESC LIMIT 1) s ON true
      WHERE d.id = $1 AND ${inScope('l', '$4')}`,
    [input.deviceId, input.range.from, input.timeZone, input.scope],
  );
  const device = devices[0];
  if (!device) throw notFound('deviceNotFound');
  const { start_ts, start_v, start_exact, ...fields } = device;
  const { rows } = await db.query<HistoryPoint>(
    `WITH b AS (
       -- A reading exactly at a bucket's start is the state at that boundary: it ends the bucket before.
       SELECT date_trunc($5, r.ts - interval '1 microsecond', $4) AS bucket, min(r.ts) AS first_ts, max(r.ts) AS last_ts, count(*)::int AS n,
              (array_agg(r.value ORDER BY r.ts DESC))[1] AS last_v, (array_agg(r.value ORDER BY r.ts))[1] AS first_v
         FROM device d JOIN reading r ON r.device_id = d.id
        WHERE d.id = $1
          AND r.ts > ($2::date::timestamp AT TIME ZONE $4) AND r.ts <= (($3::date + 1)::timestamp AT TIME ZONE $4)
          AND r.ts >= coalesce(d.installed_at, '-infinity') AND r.ts <= coalesce(d.removed_at, 'infinity')
        GROUP BY 1
     )
     SELECT iso(bucket) AS "Time", last_v::float8 AS "Value",
            (last_v - coalesce(lag(last_v) OVER (ORDER BY bucket), $6::numeric, first_v))::float8 AS "Consumption",
            iso(first_ts) AS "FirstReadingTime", iso(last_ts) AS "LastReadingTime", n AS "Readings"
       FROM b ORDER BY bucket`,
    [input.deviceId, input.range.from, input.range.till, input.timeZone, bucket, start_exact],
  );
  return {
    ...fields,
    Bucket: bucket,
    Start: start_ts !== null && start_v !== null ? { Time: start_ts, Value: start_v } : null,
    Points: rows,
  };
}

import { DEVICE_COLUMNS, DEVICE_JOINS, DEVICE_ORDER } from '@rodmenys/server/services/devices/device-row.js';
import { inScope } from '@rodmenys/server/services/sql.js';

/** How far before the period the naive query looks for the start reading. */
export const NAIVE_LOOKBACK = '7 days';

/**
 * The naive way to the same answer: read every reading of the period (plus a
 * look-back for the start value) and keep the first and last per device with
 * DISTINCT ON. Same device selection, columns and flat sums as the service.
 */
export const NAIVE_SQL = `WITH dev AS MATERIALIZED (
    SELECT d.id, d.location_id, d.rating_factor FROM device d JOIN location l ON l.id = d.location_id
     WHERE d.device_type_id = $1 AND ${inScope('l', '$2')} AND ${inScope('l', '$3')}
       AND (d.installed_at IS NULL OR d.installed_at < $5) AND (d.removed_at IS NULL OR d.removed_at >= $4)
  ), s AS (
    SELECT DISTINCT ON (r.device_id) r.device_id, r.ts, r.value FROM reading r
     WHERE r.device_id = ANY (ARRAY(SELECT id FROM dev)) AND r.ts >= $4::timestamptz - interval '${NAIVE_LOOKBACK}' AND r.ts < $5
     ORDER BY r.device_id, r.ts > $4, CASE WHEN r.ts <= $4 THEN r.ts END DESC, r.ts
  ), e AS (
    SELECT DISTINCT ON (r.device_id) r.device_id, r.ts, r.value FROM reading r
     WHERE r.device_id = ANY (ARRAY(SELECT id FROM dev)) AND r.ts >= $4::timestamptz - interval '${NAIVE_LOOKBACK}' AND r.ts < $5
     ORDER BY r.device_id, r.ts DESC
  )
  SELECT ${DEVICE_COLUMNS}, iso(s.ts) AS "TimeFrom", iso(e.ts) AS "TimeTill",
         s.value::float8 AS from, e.value::float8 AS till, (e.value - s.value)::float8 AS diff,
         (sum(e.value - s.value) OVER (PARTITION BY dev.location_id))::float8 AS flat
    FROM dev LEFT JOIN s ON s.device_id = dev.id LEFT JOIN e ON e.device_id = dev.id
    JOIN device d ON d.id = dev.id ${DEVICE_JOINS}
   ORDER BY ${DEVICE_ORDER}`;

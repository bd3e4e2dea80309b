import { DEVICE_COLUMNS, DEVICE_JOINS, DEVICE_ORDER } from '@rodmenys/server/services/devices/device-row.js';
import { inScope } from '@rodmenys/server/services/sql.js';

const DEV = `dev AS MATERIALIZED (
    SELECT d.id, d.location_id, d.rating_factor,
           coalesce(d.installed_at, '-infinity') AS since, coalesce(d.removed_at, 'infinity') AS until
      FROM device d JOIN location l ON l.id = d.location_id
     WHERE d.device_type_id = $1 AND ${inScope('l', '$2')} AND ${inScope('l', '$3')}
       AND (d.installed_at IS NULL OR d.installed_at < $5) AND (d.removed_at IS NULL OR d.removed_at >= $4)
  )`;

const SELECT = `SELECT ${DEVICE_COLUMNS}, iso(s.ts) AS "TimeFrom", iso(e.ts) AS "TimeTill",
         s.value::float8 AS from, e.value::float8 AS till, (e.value - s.value)::float8 AS diff,
         (sum(e.value - s.value) OVER (PARTITION BY dev.location_id))::float8 AS flat
    FROM dev LEFT JOIN s ON s.device_id = dev.id LEFT JOIN e ON e.device_id = dev.id
    JOIN device d ON d.id = dev.id ${DEVICE_JOINS}
   ORDER BY ${DEVICE_ORDER}`;

/**
 * The naive way to the same answer (docs/domain.md §5): every reading of each device up to the
 * period's end T within its service life, with no look-back limit (a meter silent for weeks still
 * has its start value), and DISTINCT ON keeping the start (latest ts <= F, else earliest after F)
 * and the end (latest ts <= T). Same device selection, columns and flat sums as the service; it
 * must give the same answer, and `npm run bench` fails when it does not.
 */
export const NAIVE_SQL = `WITH ${DEV}, r AS MATERIALIZED (
    SELECT r.device_id, r.ts, r.value FROM dev JOIN reading r ON r.device_id = dev.id
     WHERE r.ts <= $5 AND r.ts >= dev.since AND (r.ts <= $4 OR r.ts <= dev.until)
  ), s AS (
    SELECT DISTINCT ON (r.device_id) r.device_id, r.ts, r.value FROM r
     ORDER BY r.device_id, r.ts > $4, CASE WHEN r.ts <= $4 THEN r.ts END DESC, r.ts
  ), e AS (
    SELECT DISTINCT ON (r.device_id) r.device_id, r.ts, r.value FROM r JOIN dev ON dev.id = r.device_id
     WHERE r.ts <= dev.until
     ORDER BY r.device_id, r.ts DESC
  )
  ${SELECT}`;

/** How far before the period the naive query of earlier runs looked for the start reading. */
export const NAIVE_LOOKBACK = '7 days';

/**
 * The naive query of earlier runs, kept to show what the correct one costs: only the period's readings
 * plus a 7-day look-back, and the end before the midnight rule (ts < T). A meter silent for longer than
 * the look-back, or with a reading exactly at T, gets another answer: its differences are counted, not
 * required to be zero.
 */
export const NAIVE_7DAY_SQL = `WITH ${DEV}, s AS (
    SELECT DISTINCT ON (r.device_id) r.device_id, r.ts, r.value FROM reading r
     WHERE r.device_id = ANY (ARRAY(SELECT id FROM dev)) AND r.ts >= $4::timestamptz - interval '${NAIVE_LOOKBACK}' AND r.ts < $5
     ORDER BY r.device_id, r.ts > $4, CASE WHEN r.ts <= $4 THEN r.ts END DESC, r.ts
  ), e AS (
    SELECT DISTINCT ON (r.device_id) r.device_id, r.ts, r.value FROM reading r
     WHERE r.device_id = ANY (ARRAY(SELECT id FROM dev)) AND r.ts >= $4::timestamptz - interval '${NAIVE_LOOKBACK}' AND r.ts < $5
     ORDER BY r.device_id, r.ts DESC
  )
  ${SELECT}`;

import { DEVICE_TYPE, type DeclaredDevice } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { readNowSql } from '../lifetime/device-dates.js';
import { DECLARATION_COLUMNS } from './rows.js';

/**
 * The devices an occupancy declares (docs/declared-readings.md): its flat's heat and water meters
 * in service now (in the flat or below it), read by hand (read method `manual`: a device a collector hears, or marked remote or
 * walk-by, never is), while the occupancy lasts. With each, what a declaration for `month` is
 * checked against:
 *
 * - the previous value: the device's latest reading since its installation that is not one of this
 *   month's declarations (so a replacement starts from the new device's initial reading);
 * - the plausible maximum: the previous value plus `declarations.plausibleFactor` × the largest
 *   monthly consumption of its last 12 month ends, at least `declarations.plausibleFloor` of its type.
 */
/** The meters an occupant reads off: a flat's heat meter and water meters (allocators are read by the provider). */
export const DECLARED_TYPES = [DEVICE_TYPE.heatMeter, DEVICE_TYPE.coldWaterMeter, DEVICE_TYPE.hotWaterMeter];

export const DECLARED_DEVICES_SQL = `
  SELECT d.id, d.device_type_id, d.device_code, o.id AS occupancy_id, o.location_id,
         p.ts AS previous_at, p.value AS previous_value,
         p.value + greatest(
           coalesce((SELECT (value #>> '{}')::numeric FROM dq_setting WHERE key = 'declarations.plausibleFactor'), 3)
             * coalesce(h.largest, 0),
           coalesce((SELECT coalesce(value ->> d.device_type_id::text, value ->> 'default')::numeric
                       FROM dq_setting WHERE key = 'declarations.plausibleFloor'), 10)) AS plausible_max
    FROM occupancy o
    JOIN location l ON o.location_id = ANY (l.path)
    JOIN device d ON d.location_id = l.id
    LEFT JOIN device_status ds ON ds.device_id = d.id
    LEFT JOIN LATERAL (
      SELECT r.ts, r.value FROM reading r
       WHERE r.device_id = d.id AND r.ts <= $2::timestamptz AND r.ts >= coalesce(d.installed_at, '-infinity')
         AND NOT EXISTS (SELECT FROM declaration x WHERE x.device_id = d.id AND x.month = $3::date
                           AND x.declared_at = r.ts)
       ORDER BY r.ts DESC LIMIT 1) p ON true
    LEFT JOIN LATERAL (
      SELECT max(me.value - prev.value) AS largest FROM month_end me
        JOIN month_end prev ON prev.device_id = me.device_id AND prev.month = (me.month - interval '1 month')::date
       WHERE me.device_id = d.id AND me.month < $3::date AND me.month >= ($3::date - interval '12 months')::date) h ON true
   WHERE o.id = $1
     AND coalesce(o.move_in, '-infinity') <= $2::timestamptz::date AND coalesce(o.move_out, 'infinity') > $2::timestamptz::date
     AND coalesce(d.installed_at, '-infinity') <= $2::timestamptz AND coalesce(d.removed_at, 'infinity') > $2::timestamptz
     AND ${readNowSql('d', 'ds')} = 'manual'
     AND d.device_type_id IN (${DECLARED_TYPES.join(', ')})`;

export interface DeclaredDeviceRow {
  id: number;
  device_type_id: number;
  device_code: string;
  occupancy_id: number;
  location_id: number;
  previous_at: string | null;
  previous_value: string | null;
  plausible_max: string | null;
}

/** The occupancy's declared devices at `now`, for the month `month` (`YYYY-MM-01`), each with the window's declarations. */
export async function declaredDevices(
  db: Queryable,
  occupancyId: number,
  now: Date,
  month: string,
): Promise<DeclaredDevice[]> {
  const { rows } = await db.query<DeclaredDevice>(
    `WITH dd AS (${DECLARED_DEVICES_SQL})
     SELECT dd.id AS "DeviceId", dd.device_type_id AS "DeviceTypeId", dd.device_code AS "DeviceCode",
            dd.previous_value::float8 AS "PreviousValue", iso(dd.previous_at) AS "PreviousAt",
            dd.plausible_max::float8 AS "PlausibleMax",
            coalesce((SELECT json_agg(j ORDER BY j."DeclaredAt" DESC, j."Id" DESC) FROM (
              SELECT ${DECLARATION_COLUMNS} FROM declaration x
               WHERE x.device_id = dd.id AND x.month = $3::date AND x.occupancy_id = $1) j), '[]'::json) AS "Declarations"
       FROM dd ORDER BY dd.device_type_id, dd.device_code`,
    [occupancyId, now, month],
  );
  return rows;
}

/** One declared device of the occupancy (for a declaration), or undefined when it is not theirs or not declared. */
export async function declaredDevice(
  db: Queryable,
  occupancyId: number,
  now: Date,
  month: string,
  deviceId: number,
): Promise<DeclaredDeviceRow | undefined> {
  const { rows } = await db.query<DeclaredDeviceRow>(`SELECT * FROM (${DECLARED_DEVICES_SQL}) dd WHERE dd.id = $4`, [
    occupancyId,
    now,
    month,
    deviceId,
  ]);
  return rows[0];
}

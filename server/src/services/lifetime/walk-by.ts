import { LOCATION_LEVEL, type WalkByFlat } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import type { Caller } from '../auth/caller.js';
import { buildingIdOf, buildingOrder, inScope } from '../sql.js';
import { assertLifetimeReader } from './due.js';

/** The completed months the walk-by list looks back when the request does not say. */
export const DEFAULT_WALK_BY_MONTHS = 2;

/**
 * Flats to read by hand (docs/device-lifetime.md): a device in service since before the first of
 * the last `months` completed months none of whose month ends in them was measured (a reading
 * near the month end, or the meter's own memory); by address.
 */
export async function walkByList(
  db: Queryable,
  caller: Caller,
  months = DEFAULT_WALK_BY_MONTHS,
): Promise<{ Months: string[]; Flats: WalkByFlat[] }> {
  assertLifetimeReader(caller);
  const { rows: monthRows } = await db.query<{ m: string }>(
    `SELECT to_char(date_trunc('month', current_date) - make_interval(months => k), 'YYYY-MM') AS m
       FROM generate_series(1, $1::int) k ORDER BY k DESC`,
    [months],
  );
  const { rows } = await db.query<WalkByFlat>(
    `WITH months AS (
       SELECT (date_trunc('month', current_date) - make_interval(months => k))::date AS m FROM generate_series(1, $2::int) k
     )
     SELECT f.id AS "FlatId", b.id AS "BuildingId", address_label(b) AS "Address", f.flat AS "Flat",
            f.flat_order AS "FlatOrder", array_agg(d.device_code ORDER BY d.device_code) AS "DeviceCodes"
       FROM device d
       JOIN location f ON f.id = d.location_id AND f.level = ${LOCATION_LEVEL.flat}
       JOIN location b ON b.id = ${buildingIdOf('f')}
      WHERE d.removed_at IS NULL AND ${inScope('f', '$1')}
        AND d.installed_at < (SELECT min(m) FROM months)
        AND NOT EXISTS (SELECT 1 FROM month_end me JOIN months ON me.month = months.m
                         WHERE me.device_id = d.id AND me.source IN ('measured', 'memory'))
      GROUP BY f.id, b.id
      ORDER BY ${buildingOrder('b')}, b.id, f.flat_order NULLS FIRST, f.flat, f.id`,
    [caller.scope, months],
  );
  return { Months: monthRows.map((r) => r.m), Flats: rows };
}

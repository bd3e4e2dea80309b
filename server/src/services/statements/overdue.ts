import { DEVICE_TYPES, LOCATION_LEVEL, type StatementOverdueDevice } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { buildingIdOf } from '../sql.js';

/*
 * Figures fed by an overdue device (docs/device-lifetime.md, "Overdue figures"): a device in
 * service in month M whose due date (the earlier of its verification due date and battery end)
 * lies before M's last day, and which was still in service after it, marks M's figures it feeds.
 */

/** An overdue device of a building in M, with where it is installed. */
export interface OverdueLine extends StatementOverdueDevice {
  locationId: number;
  isBuilding: boolean;
}

/** The overdue devices of M of the buildings holding `locationIds`, per location (flat or building). */
export class OverdueDevices {
  private readonly byLocation = new Map<number, OverdueLine[]>();

  constructor(lines: readonly OverdueLine[]) {
    for (const l of lines) {
      const list = this.byLocation.get(l.locationId);
      if (list) list.push(l);
      else this.byLocation.set(l.locationId, [l]);
    }
  }

  /** A location's overdue devices of some types, in type and serial order. */
  of(locationId: number, types: readonly number[]): StatementOverdueDevice[] {
    const lines = this.byLocation.get(locationId);
    if (!lines) return [];
    return lines.filter((l) => types.includes(l.DeviceTypeId)).map(({ locationId: _, isBuilding: __, ...d }) => d);
  }
}

/*
 * The rules (verification_due, battery_end: SQL functions of migration 230 that PostgreSQL cannot
 * inline) run once per distinct set of their arguments, not once per device: a building's devices
 * mostly share their type, level, model and days, and 27,000 calls of each cost about a second.
 * The sets are found by hashing (GROUP BY: nulls equal, as the functions see them) and joined back on
 * keys made of a null flag and the value, which hash too: numbering them with dense_rank() sorted every
 * device twice (docs/benchmarks.md, "Fourth pass").
 */
const OVERDUE_SQL = `WITH b AS (
    SELECT DISTINCT ${buildingIdOf('l')} AS id FROM location l WHERE l.id = ANY ($1::int[])
  ), m AS (
    SELECT $2::date::timestamp::timestamptz AS s, ($2::date + interval '1 month')::timestamp::timestamptz AS e,
           ($2::date + interval '1 month' - interval '1 day')::date AS last
  ), dev AS MATERIALIZED (
    SELECT d.id, d.device_code, d.device_type_id, d.model, d.removed_at, l.id AS location_id, l.level,
           coalesce(d.verified_on, d.installed_at::date) AS from_day, d.installed_at::date AS installed_day
      FROM b JOIN location l ON ${buildingIdOf('l')} = b.id AND l.path @> ARRAY[b.id]
      JOIN device d ON d.location_id = l.id
      CROSS JOIN m
     WHERE d.device_type_id IN (${DEVICE_TYPES.join(', ')})
       AND coalesce(d.installed_at, '-infinity') < m.e AND coalesce(d.removed_at, 'infinity') >= m.s
  ), vd AS MATERIALIZED (
    -- The lifetime rules of migration 230, as services/lifetime/device-dates.ts names them.
    SELECT k.device_type_id, k.level, k.from_day IS NULL AS no_day, coalesce(k.from_day, '-infinity') AS day,
           verification_due(k.device_type_id, k.level, k.from_day) AS v
      FROM (SELECT device_type_id, level, from_day FROM dev GROUP BY 1, 2, 3) k
  ), bd AS MATERIALIZED (
    SELECT k.device_type_id, k.model IS NULL AS no_model, coalesce(k.model, '') AS model,
           k.installed_day IS NULL AS no_day, coalesce(k.installed_day, '-infinity') AS day,
           battery_end(k.device_type_id, k.model, k.installed_day) AS bd
      FROM (SELECT device_type_id, model, installed_day FROM dev GROUP BY 1, 2, 3) k
  )
  SELECT dev.id AS "DeviceId", dev.device_code AS "DeviceCode", dev.device_type_id AS "DeviceTypeId",
         to_char(x.due, 'YYYY-MM-DD') AS "DueDate", x.reason AS "Reason",
         dev.location_id AS "locationId", dev.level = ${LOCATION_LEVEL.building} AS "isBuilding"
    FROM dev
    JOIN vd ON vd.device_type_id = dev.device_type_id AND vd.level = dev.level
           AND vd.no_day = (dev.from_day IS NULL) AND vd.day = coalesce(dev.from_day, '-infinity')
    JOIN bd ON bd.device_type_id = dev.device_type_id
           AND bd.no_model = (dev.model IS NULL) AND bd.model = coalesce(dev.model, '')
           AND bd.no_day = (dev.installed_day IS NULL) AND bd.day = coalesce(dev.installed_day, '-infinity')
    CROSS JOIN m
    -- The earlier of the verification due date and the battery end, and which one it is.
    CROSS JOIN LATERAL (
      SELECT CASE WHEN bd.bd IS NOT NULL AND (vd.v IS NULL OR bd.bd < vd.v) THEN bd.bd ELSE vd.v END AS due,
             CASE WHEN bd.bd IS NOT NULL AND (vd.v IS NULL OR bd.bd < vd.v) THEN 'battery' ELSE 'verification' END AS reason) x
   WHERE x.due < m.last
     AND (dev.removed_at IS NULL OR dev.removed_at::date > x.due)
   ORDER BY dev.location_id, dev.device_type_id, dev.device_code`;

/** The devices of the buildings of `locationIds` that were past their due date in `month` (YYYY-MM). */
export async function loadOverdue(
  db: Queryable,
  locationIds: readonly number[],
  month: string,
): Promise<OverdueDevices> {
  if (!locationIds.length) return new OverdueDevices([]);
  const { rows } = await db.query<OverdueLine>(OVERDUE_SQL, [locationIds, `${month}-01`]);
  return new OverdueDevices(rows);
}

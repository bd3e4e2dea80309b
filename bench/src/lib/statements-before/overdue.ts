// Frozen copy of server/src/services/statements/overdue.ts at commit 56f68cb, for bench:statements only.
import { DEVICE_TYPES, LOCATION_LEVEL, type StatementOverdueDevice } from '@rodmenys/contract';
import type { Queryable } from '@rodmenys/server/db/db.js';
import { buildingIdOf } from '@rodmenys/server/services/sql.js';

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
    return (this.byLocation.get(locationId) ?? [])
      .filter((l) => types.includes(l.DeviceTypeId))
      .map(({ locationId: _, isBuilding: __, ...d }) => d);
  }
}

const OVERDUE_SQL = `WITH b AS (
    SELECT DISTINCT ${buildingIdOf('l')} AS id FROM location l WHERE l.id = ANY ($1::int[])
  ), m AS (
    SELECT $2::date::timestamp::timestamptz AS s, ($2::date + interval '1 month')::timestamp::timestamptz AS e,
           ($2::date + interval '1 month' - interval '1 day')::date AS last
  )
  SELECT d.id AS "DeviceId", d.device_code AS "DeviceCode", d.device_type_id AS "DeviceTypeId",
         to_char(x.due, 'YYYY-MM-DD') AS "DueDate", x.reason AS "Reason",
         l.id AS "locationId", l.level = ${LOCATION_LEVEL.building} AS "isBuilding"
    FROM b JOIN location l ON ${buildingIdOf('l')} = b.id AND l.path @> ARRAY[b.id]
    JOIN device d ON d.location_id = l.id
    CROSS JOIN m
    -- The lifetime rules of migration 230, as services/lifetime/device-dates.ts names them: the earlier
    -- of the verification due date and the battery end, and which one it is.
    CROSS JOIN LATERAL (
      SELECT verification_due(d.device_type_id, l.level, coalesce(d.verified_on, d.installed_at::date)) AS v,
             battery_end(d.device_type_id, d.model, d.installed_at::date) AS bd) y
    CROSS JOIN LATERAL (
      SELECT CASE WHEN y.bd IS NOT NULL AND (y.v IS NULL OR y.bd < y.v) THEN y.bd ELSE y.v END AS due,
             CASE WHEN y.bd IS NOT NULL AND (y.v IS NULL OR y.bd < y.v) THEN 'battery' ELSE 'verification' END AS reason) x
   WHERE d.device_type_id IN (${DEVICE_TYPES.join(', ')})
     AND coalesce(d.installed_at, '-infinity') < m.e AND coalesce(d.removed_at, 'infinity') >= m.s
     AND x.due < m.last
     AND (d.removed_at IS NULL OR d.removed_at::date > x.due)
   ORDER BY l.id, d.device_type_id, d.device_code`;

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

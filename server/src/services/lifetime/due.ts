import { type DueRow, GROUP } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { forbidden } from '../../errors.js';
import type { Caller } from '../auth/caller.js';
import { buildingIdOf, buildingOrder, inScope } from '../sql.js';
import { batteryEndSql, dueDateSql, dueReasonSql, verificationDueSql } from './device-dates.js';

/** Groups 1 and 2 see the due lists and the register (group 2 within its scope); group 3 and keys: 403. */
export function assertLifetimeReader(caller: Caller): void {
  if (caller.key || caller.groupId === GROUP.user) throw forbidden('lifetimeAdminsOnly');
}

export interface DueQuery {
  months?: number;
  buildingId?: number;
  deviceTypeId?: number;
}

/** The months after this one a due list looks into when the request does not say. */
export const DEFAULT_DUE_MONTHS = 3;

/**
 * Devices in service whose verification or battery is due (docs/device-lifetime.md): overdue,
 * this month, or within the next `months` months; one row per device with its earlier date and
 * that date's reason; in address order (building, flat order, flat), then type and serial.
 */
export async function listDueDevices(
  db: Queryable,
  caller: Caller,
  query: DueQuery,
): Promise<{ Today: string; Rows: DueRow[] }> {
  assertLifetimeReader(caller);
  const { rows } = await db.query<DueRow & { today: string }>(
    `WITH dated AS (
       SELECT d.id, d.device_type_id, d.device_code, d.model, l.flat, l.flat_order, b.id AS building_id,
              address_label(b) AS address, ${verificationDueSql('d', 'l')} AS vdue, ${batteryEndSql('d')} AS bend,
              ${buildingOrder('b')}
         FROM device d
         JOIN location l ON l.id = d.location_id
         JOIN location b ON b.id = ${buildingIdOf('l')}
        WHERE d.removed_at IS NULL AND ${inScope('l', '$1')}
          AND ($2::int IS NULL OR b.id = $2) AND ($3::int IS NULL OR d.device_type_id = $3)
     ), due AS (
       SELECT *, ${dueDateSql('vdue', 'bend')} AS due_date, ${dueReasonSql('vdue', 'bend')} AS reason
         FROM dated
     )
     SELECT id AS "DeviceId", building_id AS "BuildingId", address AS "Address", flat AS "Flat",
            flat_order AS "FlatOrder", device_type_id AS "DeviceTypeId", device_code AS "DeviceCode", model AS "Model",
            to_char(due_date, 'YYYY-MM-DD') AS "DueDate", reason AS "Reason",
            CASE WHEN due_date < current_date THEN 'overdue'
                 WHEN due_date < (date_trunc('month', current_date) + interval '1 month')::date THEN 'thisMonth'
                 ELSE 'soon' END AS "Bucket",
            to_char(current_date, 'YYYY-MM-DD') AS today
       FROM due
      WHERE due_date < (date_trunc('month', current_date) + make_interval(months => $4 + 1))::date
      ORDER BY country, county, region, city, street, building_number(building), building, building_id,
               flat_order NULLS FIRST, flat NULLS FIRST, device_type_id, device_code`,
    [caller.scope, query.buildingId ?? null, query.deviceTypeId ?? null, query.months ?? DEFAULT_DUE_MONTHS],
  );
  const today = rows[0]?.today ?? (await todayOf(db));
  return { Today: today, Rows: rows.map(({ today: _, ...r }) => r) };
}

/** Today in the provider's zone (the session's), YYYY-MM-DD. */
export async function todayOf(db: Queryable): Promise<string> {
  const { rows } = await db.query<{ today: string }>(`SELECT to_char(current_date, 'YYYY-MM-DD') AS today`);
  return rows[0]!.today;
}

import type { DeclarationDeviceRow } from '@rodmenys/contract';
import type { Queryable } from '../../../db/db.js';
import type { Caller } from '../../auth/caller.js';
import { buildingIdOf, buildingOrder, inScope } from '../../sql.js';
import { countingSql } from '../rows.js';
import { assertDeclarationOffice, isDeclaredDeviceSql, windowOf } from './access.js';

/**
 * The declared devices of flats in a window (docs/declared-readings.md): in service at the
 * window's end, with the flat's occupancy on its last day and the declaration that counts, if any.
 * $1 the scope (null: all), $2 the month (its first day), $3 the window's last day, $4 a building or null.
 * By address, flat and serial. Shared by the list, the print list and the reminders.
 */
export const UNDECLARED_SQL = `SELECT d.id AS device_id, d.device_code, d.device_type_id, b.id AS building_id,
         address_label(b) AS address, f.id AS flat_id, f.flat, f.flat_order, b.city, b.street, b.building,
         o.id AS occupancy_id, o.name AS occupant_name,
         (o.consent_at IS NOT NULL AND nullif(trim(o.email), '') IS NOT NULL) AS email,
         c.value IS NOT NULL AS declared, c.value::float8 AS value,
         coalesce((SELECT array_agg(DISTINCT n.kind ORDER BY n.kind) FROM declaration_notice n
                    WHERE n.device_id = d.id AND n.month = $2::date AND n.kind LIKE 'reminder%'), '{}') AS reminders
    FROM device d
    JOIN location f ON f.id = d.location_id
    JOIN location b ON b.id = ${buildingIdOf('f')}
    LEFT JOIN LATERAL (
      SELECT o.* FROM occupancy o WHERE o.location_id = f.id AND coalesce(o.move_in, '-infinity') <= $3::date
         AND coalesce(o.move_out, 'infinity') > $3::date
       ORDER BY o.move_in DESC NULLS LAST LIMIT 1) o ON true
    LEFT JOIN device_status ds ON ds.device_id = d.id
    LEFT JOIN declaration c ON c.id = (${countingSql('d.id', '$2::date')})
   WHERE ${isDeclaredDeviceSql('d', 'f', 'ds')} AND ${inScope('f', '$1')}
     AND ($4::int IS NULL OR ${buildingIdOf('f')} = $4)
     AND coalesce(d.installed_at, '-infinity') < ($3::date + 1)::timestamp::timestamptz
     AND coalesce(d.removed_at, 'infinity') >= ($3::date + 1)::timestamp::timestamptz
   ORDER BY ${buildingOrder('b')}, b.id, f.flat_order NULLS FIRST, f.flat, f.id, d.device_code, d.id`;

/** One row of UNDECLARED_SQL. */
export interface DeviceRowDb {
  device_id: number;
  device_code: string;
  device_type_id: number;
  building_id: number;
  address: string;
  flat_id: number;
  flat: string;
  flat_order: number | null;
  city: string | null;
  street: string | null;
  building: string | null;
  occupancy_id: number | null;
  occupant_name: string | null;
  email: boolean;
  declared: boolean;
  value: number | null;
  reminders: string[];
}

export interface DevicesQuery {
  month?: string | undefined;
  buildingId?: number | undefined;
  undeclared?: boolean | undefined;
}

/** The window's declared devices as the database has them (scoped). */
export async function declarationDevicesDb(db: Queryable, scope: number[] | null, q: DevicesQuery) {
  const w = await windowOf(db, q.month);
  const { rows } = await db.query<DeviceRowDb>(UNDECLARED_SQL, [
    scope,
    `${w.month}-01`,
    w.closes,
    q.buildingId ?? null,
  ]);
  return { window: w, rows: q.undeclared ? rows.filter((r) => !r.declared) : rows };
}

/** The declared devices of a window, or only those not declared (docs/declared-readings.md). */
export async function listDeclarationDevices(db: Queryable, caller: Caller, q: DevicesQuery) {
  assertDeclarationOffice(caller);
  const { window, rows } = await declarationDevicesDb(db, caller.scope, q);
  return {
    Month: window.month,
    Opens: window.opens,
    Closes: window.closes,
    Rows: rows.map(
      (r): DeclarationDeviceRow => ({
        DeviceId: r.device_id,
        DeviceCode: r.device_code,
        DeviceTypeId: r.device_type_id,
        BuildingId: r.building_id,
        Address: r.address,
        FlatId: r.flat_id,
        Flat: r.flat,
        FlatOrder: r.flat_order,
        OccupancyId: r.occupancy_id,
        OccupantName: r.occupant_name,
        Email: r.email,
        Declared: r.declared,
        Value: r.value,
        Reminders: r.reminders,
      }),
    ),
  };
}

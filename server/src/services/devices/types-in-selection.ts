import type { DeviceTypeInSelection } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { inScope } from '../sql.js';
import type { DayRange } from '../time.js';

export interface TypesInSelectionInput {
  /** The caller's scope (null = all). */
  scope: number[] | null;
  /** Subtrees to look in (null = the whole scope). */
  parents: number[] | null;
  /** With a period, only devices present in it count (the rule of GetDevicesData); without, devices not removed. */
  range: DayRange | null;
  timeZone: string;
}

/** The device types found in a selection with their device counts (the top table of the device data screen). */
export async function listTypesInSelection(
  db: Queryable,
  input: TypesInSelectionInput,
): Promise<DeviceTypeInSelection[]> {
  const { rows } = await db.query<DeviceTypeInSelection>(
    `WITH bounds AS (
       SELECT ($3::date::timestamp AT TIME ZONE $5) AS f, (($4::date + 1)::timestamp AT TIME ZONE $5) AS t
     )
     SELECT t.id AS "Id", t.code AS "DeviceTypeCode", t.name_lt AS "DeviceTypeName", t.name_en AS "DeviceTypeNameEn",
            t.category_code AS "DeviceCategoryCode", t.data_load_proc AS "DataLoadProc", count(*)::int AS "DeviceCount"
       FROM device d
       JOIN location l ON l.id = d.location_id
       JOIN device_type t ON t.id = d.device_type_id
       CROSS JOIN bounds b
      WHERE ${inScope('l', '$1')} AND ${inScope('l', '$2')}
        AND CASE WHEN $3::date IS NULL THEN d.removed_at IS NULL OR d.removed_at > now()
                 ELSE (d.installed_at IS NULL OR d.installed_at < b.t) AND (d.removed_at IS NULL OR d.removed_at >= b.f)
            END
      GROUP BY t.id
      ORDER BY t.id`,
    [input.scope, input.parents, input.range?.from ?? null, input.range?.till ?? null, input.timeZone],
  );
  return rows;
}

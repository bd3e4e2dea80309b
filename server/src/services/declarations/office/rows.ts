import type { OfficeDeclaration } from '@rodmenys/contract';
import type { Queryable } from '../../../db/db.js';
import type { Caller } from '../../auth/caller.js';
import { buildingIdOf, buildingOrder, inScope } from '../../sql.js';
import { accountNameSql } from '../../users/account-scope.js';
import { countingSql } from '../rows.js';

/**
 * Declarations as the back office sees them, scoped ($1 the caller's scope): filtered by month
 * ($2, a date or null), building ($3), status ($4) and id ($5), by address, flat, device, latest first.
 */
/** Who entered and who decided as the caller may see it (docs/security.md, "Names of accounts"). */
const rowsSql = (caller: Pick<Caller, 'id' | 'groupId'>) => `WITH x AS (
    -- The one that counts for its device and month (docs/declared-readings.md, services/declarations/rows.ts).
    SELECT x.*, coalesce(x.id = (${countingSql('x.device_id', 'x.month')}), false) AS counts
      FROM declaration x
      JOIN location f ON f.id = x.location_id
     WHERE ${inScope('f', '$1')} AND ($2::date IS NULL OR x.month = $2::date)
       AND ($3::int IS NULL OR ${buildingIdOf('f')} = $3) AND ($4::text IS NULL OR x.status = $4)
       AND ($5::int IS NULL OR x.id = $5)
  )
  SELECT x.id AS "Id", x.device_id AS "DeviceId", d.device_code AS "DeviceCode", d.device_type_id AS "DeviceTypeId",
         b.id AS "BuildingId", address_label(b) AS "Address", f.id AS "FlatId", f.flat AS "Flat",
         f.flat_order AS "FlatOrder", o.name AS "OccupantName", x.value::float8 AS "Value",
         iso(x.declared_at) AS "DeclaredAt", to_char(x.month, 'YYYY-MM') AS "Month", x.channel AS "Channel",
         ${accountNameSql(caller, 'eu')} AS "EnteredBy", x.caller_name AS "CallerName", x.caller_phone AS "CallerPhone",
         x.photo_id IS NOT NULL AS "HasPhoto", x.status AS "Status", x.reason AS "Reason", ${accountNameSql(caller, 'du')} AS "DecidedBy",
         iso(x.decided_at) AS "DecidedAt", x.confirmed AS "Confirmed", x.previous_value::float8 AS "PreviousValue",
         x.plausible_max::float8 AS "PlausibleMax", x.counts AS "Counts"
    FROM x
    JOIN device d ON d.id = x.device_id
    JOIN location f ON f.id = x.location_id
    JOIN location b ON b.id = ${buildingIdOf('f')}
    JOIN occupancy o ON o.id = x.occupancy_id
    LEFT JOIN app_user eu ON eu.id = x.entered_by
    LEFT JOIN app_user du ON du.id = x.decided_by
   ORDER BY ${buildingOrder('b')}, b.id, f.flat_order NULLS FIRST, f.flat, f.id, d.device_code, x.declared_at DESC, x.id DESC`;

export interface RowFilter {
  month?: string | undefined;
  buildingId?: number | undefined;
  status?: string | undefined;
  id?: number | undefined;
}

/** The declarations of the filter that the caller may see. */
export async function declarationRows(
  db: Queryable,
  caller: Pick<Caller, 'id' | 'groupId' | 'scope'>,
  filter: RowFilter,
): Promise<OfficeDeclaration[]> {
  const { rows } = await db.query<OfficeDeclaration>(rowsSql(caller), [
    caller.scope,
    filter.month ? `${filter.month}-01` : null,
    filter.buildingId ?? null,
    filter.status ?? null,
    filter.id ?? null,
  ]);
  return rows;
}

import type { Declaration } from '@rodmenys/contract';

/**
 * A declaration as the occupant is shown it, from `declaration x` (and its `month`'s counting
 * declaration, COUNTING_SQL). Never the back-office user who entered it: no account's name is shown
 * to an occupant (docs/security.md, "Names of accounts"); the channel says it was a phone call.
 */
export const DECLARATION_COLUMNS = `x.id AS "Id", x.device_id AS "DeviceId", x.occupancy_id AS "OccupancyId",
  x.location_id AS "LocationId", x.value::float8 AS "Value", iso(x.declared_at) AS "DeclaredAt",
  to_char(x.month, 'YYYY-MM') AS "Month", x.channel AS "Channel", NULL::text AS "EnteredBy",
  x.photo_id AS "PhotoId", x.status AS "Status", x.reason AS "Reason", x.confirmed AS "Confirmed",
  x.previous_value::float8 AS "PreviousValue", x.plausible_max::float8 AS "PlausibleMax",
  x.id = (${countingSql('x.device_id', 'x.month')}) AS "Counts"`;

/**
 * The id of the declaration that counts for a device and month (docs/declared-readings.md): of the
 * ones not rejected, the latest day's; on that day the largest value (then the latest).
 */
export function countingSql(device: string, month: string): string {
  return `SELECT c.id FROM declaration c
     WHERE c.device_id = ${device} AND c.month = ${month} AND c.status <> 'rejected'
     ORDER BY c.declared_at::date DESC, c.value DESC, c.declared_at DESC, c.id DESC LIMIT 1`;
}

/**
 * A declaration's time as stored (SQL of a timestamptz parameter): to the second, the time of the reading it
 * becomes, so that a declaration finds its reading by time (services/declarations/apply.ts, the previous value
 * of devices.ts) whatever fraction of a second the request carried. Migration 305 holds every row to it.
 */
export const declaredAtSql = (param: string) => `date_trunc('second', ${param}::timestamptz)`;

export type DeclarationRow = Declaration;

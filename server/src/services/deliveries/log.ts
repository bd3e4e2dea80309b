import { type BuildingDeliveries, GROUP, type OccupantDelivery } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { forbidden } from '../../errors.js';
import type { Caller } from '../auth/caller.js';
import { buildingOrder, inScope } from '../sql.js';

/**
 * The occupants' delivery log of a month (docs/delivery.md), per building in address order and
 * per flat in its order: each occupancy's delivery of the building's latest version. Group 1 sees
 * every building, group 2 the flats of its scope; group 3 and integration keys get 403.
 */
export async function listOccupantDeliveries(
  db: Queryable,
  caller: Caller,
  month: string,
  parents: number[] | null,
): Promise<BuildingDeliveries[]> {
  if (caller.key || caller.groupId === GROUP.user) throw forbidden('deliveriesAdminsOnly');
  const { rows } = await db.query<OccupantDelivery & { Address: string }>(
    `WITH latest AS (
       SELECT building_id, max(version) AS version FROM occupant_delivery WHERE month = $1::date GROUP BY building_id
     )
     SELECT d.id AS "Id", to_char(d.month, 'YYYY-MM') AS "Month", d.version AS "Version", d.building_id AS "BuildingId",
            d.flat_id AS "FlatId", f.flat AS "Flat", d.occupancy_id AS "OccupancyId", o.name AS "Name",
            d.channel AS "Channel", d.email AS "Email", d.language AS "Language", d.status AS "Status",
            iso(d.queued_at) AS "QueuedAt", d.attempts AS "Attempts", d.error AS "Error",
            iso(d.next_attempt_at) AS "NextAttemptAt", d.given_up AS "GivenUp", iso(d.sent_at) AS "SentAt",
            iso(d.printed_at) AS "PrintedAt", concat_ws(' ', b.city, b.street, b.building) AS "Address"
       FROM occupant_delivery d
       JOIN latest v ON v.building_id = d.building_id AND v.version = d.version
       JOIN occupancy o ON o.id = d.occupancy_id
       JOIN location f ON f.id = d.flat_id
       JOIN location b ON b.id = d.building_id
      WHERE d.month = $1::date AND ${inScope('f', '$2')} AND ${inScope('f', '$3')}
      ORDER BY ${buildingOrder('b')}, b.id, f.flat_order NULLS FIRST, f.flat, f.id, o.move_in NULLS FIRST, d.id`,
    [`${month}-01`, caller.scope, parents],
  );
  const out: BuildingDeliveries[] = [];
  for (const { Address, ...d } of rows) {
    let b = out.at(-1);
    if (b?.BuildingId !== d.BuildingId) {
      b = { BuildingId: d.BuildingId, Address, Queued: 0, Sent: 0, Failed: 0, Printed: 0, Letters: 0, Deliveries: [] };
      out.push(b);
    }
    b.Deliveries.push(d);
    if (d.Status === 'queued') b.Queued++;
    else if (d.Status === 'sent') b.Sent++;
    else if (d.Status === 'failed') b.Failed++;
    else b.Printed++;
    // The print list: letters, and e-mails given up (the print list takes them too).
    if (d.Channel === 'print' || (d.GivenUp && (d.Status === 'failed' || d.Status === 'printed'))) b.Letters++;
  }
  return out;
}

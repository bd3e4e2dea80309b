import type { NoAccessVisit } from '@rodmenys/contract';
import type { Db } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { assertLifetimeReader } from '../lifetime/due.js';
import { inScope } from '../sql.js';

/**
 * Records a visit without access to a campaign's device (docs/device-lifetime.md, "Exchange
 * campaigns"): the day and reason, who and when; audited. Group 1, and group 2 for a device in its
 * scope; any other device, or one not in the campaign, is 404.
 */
export async function recordNoAccess(
  db: Db,
  caller: Caller,
  campaignId: number,
  deviceId: number,
  input: { day: string; reason: string },
): Promise<NoAccessVisit> {
  assertLifetimeReader(caller);
  return db.transaction(async (tx) => {
    const { rows: found } = await tx.query(
      `SELECT 1 FROM campaign_device cd JOIN device d ON d.id = cd.device_id JOIN location l ON l.id = d.location_id
        WHERE cd.campaign_id = $1 AND cd.device_id = $2 AND ${inScope('l', '$3')}`,
      [campaignId, deviceId, caller.scope],
    );
    if (!found.length) throw notFound();
    const { rows } = await tx.query<NoAccessVisit>(
      `WITH n AS (
         INSERT INTO campaign_no_access (campaign_id, device_id, day, reason, recorded_by)
         VALUES ($1, $2, $3, $4, $5) RETURNING *
       )
       SELECT n.id AS "Id", to_char(n.day, 'YYYY-MM-DD') AS "Day", n.reason AS "Reason", iso(n.recorded_at) AS "RecordedAt",
              nullif(concat_ws(' ', u.first_name, u.last_name), '') AS "RecordedBy"
         FROM n LEFT JOIN app_user u ON u.id = n.recorded_by`,
      [campaignId, deviceId, input.day, input.reason.trim(), caller.id],
    );
    const visit = rows[0]!;
    await recordAudit(tx, {
      actor: caller,
      kind: 'campaign.noAccess',
      entity: 'campaign',
      entityId: campaignId,
      before: null,
      after: { DeviceId: deviceId, Day: visit.Day, Reason: visit.Reason },
    });
    return visit;
  });
}

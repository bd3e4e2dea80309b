import { DEVICE_TYPE } from '@rodmenys/contract';
import type { Tx } from '../../db/db.js';
import { verificationDueSql, verifiedFromSql } from '../../services/lifetime/device-dates.js';

/*
 * The demo's exchange campaign (docs/device-lifetime.md, "Exchange campaigns"): the water meters
 * of the declared meters' building whose verification falls due first (at most 4, none of the
 * declared ones), started by `operator` on the day of generation, with the building's visit day two
 * weeks later (the next weekday), 09:00–12:00. Nothing is drawn from the random numbers.
 */

/** How many devices the campaign takes. */
const DEVICES = 4;

/** Creates the campaign; returns its id, or null when the building has no such meter. */
export async function loadDemoCampaign(
  tx: Tx,
  buildingId: number,
  skip: readonly number[],
  now: Date,
  operatorId: number,
): Promise<number | null> {
  const { rows: devices } = await tx.query<{ id: number }>(
    `SELECT d.id FROM device d JOIN location l ON l.id = d.location_id
      WHERE l.parent_id = $1 AND d.device_type_id IN (${DEVICE_TYPE.coldWaterMeter}, ${DEVICE_TYPE.hotWaterMeter})
        AND d.removed_at IS NULL AND NOT d.id = ANY ($2::int[])
      ORDER BY ${verificationDueSql('d', 'l')} NULLS LAST, d.id LIMIT ${DEVICES}`,
    [buildingId, skip],
  );
  if (!devices.length) return null;
  const { rows } = await tx.query<{ id: number; day: string }>(
    `WITH today AS (SELECT $1::timestamptz::date AS d),
          visit AS (SELECT (t.d + 14 + CASE extract(isodow FROM t.d + 14) WHEN 6 THEN 2 WHEN 7 THEN 1 ELSE 0 END) AS day
                      FROM today t)
     INSERT INTO campaign (name, started_on, created_at, created_by)
     SELECT 'Vandens skaitiklių keitimas ' || to_char(v.day, 'YYYY'), t.d, $1::timestamptz, $2 FROM today t, visit v
     RETURNING id, (SELECT day::text FROM visit) AS day`,
    [now.toISOString(), operatorId],
  );
  const campaign = rows[0]!;
  await tx.query(
    `INSERT INTO campaign_device (campaign_id, device_id, building_id, verified_from)
     SELECT $1, d.id, $2, ${verifiedFromSql('d')} FROM device d WHERE d.id = ANY ($3::int[])`,
    [campaign.id, buildingId, devices.map((d) => d.id)],
  );
  await tx.query(
    `INSERT INTO campaign_visit (campaign_id, building_id, day, time_from, time_to) VALUES ($1, $2, $3::date, '09:00', '12:00')`,
    [campaign.id, buildingId, campaign.day],
  );
  return campaign.id;
}

import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { buildingOrder } from '../sql.js';

/** One occupant to tell of a building's visit day, with the devices of their flat to exchange. */
export interface Recipient {
  building_id: number;
  address: string;
  flat_id: number;
  flat: string;
  occupancy_id: number;
  name: string;
  /** Set only with consent to electronic delivery: then the notice is an e-mail. */
  email: string | null;
  language: string | null;
  day: string;
  time_from: string | null;
  time_to: string | null;
  device_codes: string[];
}

/**
 * Who is told of a campaign's visits (docs/device-lifetime.md, "Exchange campaigns"): per building
 * with a planned day, the occupants living on that day in the flats of its devices that are not done
 * yet (neither replaced since the start nor re-verified). In address order: building, flat order
 * (the floor), flat.
 */
export async function campaignRecipients(db: Queryable, campaignId: number): Promise<Recipient[]> {
  const { rows } = await db.query<Recipient>(
    `SELECT b.id AS building_id, address_label(b) AS address, f.id AS flat_id, f.flat, o.id AS occupancy_id, o.name,
            CASE WHEN o.consent_at IS NOT NULL THEN nullif(trim(o.email), '') END AS email, o.language,
            to_char(v.day, 'YYYY-MM-DD') AS day, to_char(v.time_from, 'HH24:MI') AS time_from,
            to_char(v.time_to, 'HH24:MI') AS time_to,
            array_agg(d.device_code ORDER BY d.device_type_id, d.device_code) AS device_codes
       FROM campaign c
       JOIN campaign_device cd ON cd.campaign_id = c.id
       JOIN campaign_visit v ON v.campaign_id = c.id AND v.building_id = cd.building_id
       JOIN device d ON d.id = cd.device_id
       JOIN location f ON f.id = d.location_id AND f.level = ${LOCATION_LEVEL.flat}
       JOIN location b ON b.id = cd.building_id
       JOIN occupancy o ON o.location_id = f.id
        AND coalesce(o.move_in, '-infinity'::date) <= v.day AND coalesce(o.move_out, 'infinity'::date) > v.day
      WHERE c.id = $1
        AND NOT (d.replaced_by IS NOT NULL AND d.removed_at >= c.started_on)
        AND NOT (d.verified_on IS NOT NULL AND d.verified_on > coalesce(cd.verified_from, '-infinity'::date))
      GROUP BY b.id, f.id, o.id, v.day, v.time_from, v.time_to
      ORDER BY ${buildingOrder('b')}, b.id, f.flat_order NULLS FIRST, f.flat, o.id`,
    [campaignId],
  );
  return rows;
}

import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';

/**
 * The occupants' deliveries of a publication (docs/delivery.md), queued in the publishing
 * transaction: for each building's new version, one row per occupancy that lived in a published
 * flat on a day of the month. An occupancy with an e-mail address and consent to electronic
 * delivery gets an e-mail notice (sent by the `occupant-delivery` job); any other lands on the
 * building's print list. A notice of an earlier version not sent yet is given up: the new one
 * replaces it.
 */
export async function queueOccupantDeliveries(
  tx: Queryable,
  month: string,
  published: readonly { buildingId: number; version: number }[],
): Promise<number> {
  if (!published.length) return 0;
  const buildings = published.map((p) => p.buildingId);
  const versions = published.map((p) => p.version);
  await tx.query(
    `UPDATE occupant_delivery d SET given_up = true, next_attempt_at = NULL,
            error = coalesce(d.error || ' · ', '') || 'superseded by version ' || b.version
       FROM unnest($2::int[], $3::int[]) AS b(building, version)
      WHERE d.month = $1::date AND d.building_id = b.building AND d.version < b.version
        AND d.channel = 'email' AND d.status IN ('queued', 'failed') AND NOT d.given_up`,
    [`${month}-01`, buildings, versions],
  );
  const { rowCount } = await tx.query(
    `WITH m AS (SELECT $1::date AS s, ($1::date + interval '1 month')::date AS e),
     o AS (
       SELECT p.building_id, p.version, o.location_id, o.id,
              CASE WHEN o.consent_at IS NOT NULL THEN nullif(trim(o.email), '') END AS email,
              coalesce(o.language, 'lt') AS language
         FROM unnest($2::int[], $3::int[]) AS b(building, version)
         JOIN statement_publication p ON p.month = $1::date AND p.building_id = b.building AND p.version = b.version
         JOIN statement_snapshot s ON s.publication_id = p.id
         JOIN location f ON f.id = s.flat_id AND f.level = ${LOCATION_LEVEL.flat}
         JOIN occupancy o ON o.location_id = f.id, m
        WHERE coalesce(o.move_in, '-infinity') < m.e AND coalesce(o.move_out, 'infinity') > m.s
     )
     INSERT INTO occupant_delivery (month, building_id, flat_id, occupancy_id, version, channel, email, language,
                                    status, next_attempt_at)
     SELECT $1::date, building_id, location_id, id, version, CASE WHEN email IS NULL THEN 'print' ELSE 'email' END,
            email, language, 'queued', CASE WHEN email IS NOT NULL THEN now() END
       FROM o
     ON CONFLICT (occupancy_id, month, version) DO NOTHING`,
    [`${month}-01`, buildings, versions],
  );
  return rowCount ?? 0;
}

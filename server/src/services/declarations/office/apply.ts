import type { Queryable } from '../../../db/db.js';
import { buildingIdOf } from '../../sql.js';

/**
 * Opens (or refreshes) the DECLARED_DOUBTFUL anomaly of a doubtful declaration's device and month, for
 * the back office, with the evidence it decides on, from the stored declaration: the declaration, the
 * value, the previous value, the plausible maximum and the photo. The occupant's declarations and the
 * back office's phone entries open it alike; the validation run does not resolve it: accepting or
 * rejecting the declaration does.
 */
export async function openDoubtfulAnomaly(tx: Queryable, declarationId: number): Promise<void> {
  await tx.query(
    `INSERT INTO anomaly (rule, building_id, device_id, month, evidence)
     SELECT 'DECLARED_DOUBTFUL', ${buildingIdOf('l')}, x.device_id, x.month,
            jsonb_build_object('declarationId', x.id, 'value', x.value, 'previous', x.previous_value,
                               'max', x.plausible_max, 'photoId', x.photo_id)
       FROM declaration x JOIN device d ON d.id = x.device_id JOIN location l ON l.id = d.location_id
      WHERE x.id = $1
     -- The key of the index anomaly_unresolved (migration 345), spelled as it is.
     ON CONFLICT (rule, building_id, coalesce(device_id, 0), month, coalesce(collector_id, 0),
                  coalesce(lns_connection_id, 0)) WHERE state <> 'resolved'
     DO UPDATE SET evidence = excluded.evidence, last_seen_at = now()`,
    [declarationId],
  );
}

/** A decided declaration's anomaly is resolved when no doubtful declaration of its device and month is left. */
export async function resolveDoubtfulAnomaly(tx: Queryable, deviceId: number, month: string): Promise<void> {
  await tx.query(
    `UPDATE anomaly SET state = 'resolved', resolved_at = now()
      WHERE rule = 'DECLARED_DOUBTFUL' AND device_id = $1 AND month = $2::date AND state <> 'resolved'
        AND NOT EXISTS (SELECT FROM declaration WHERE device_id = $1 AND month = $2::date AND status = 'doubtful')`,
    [deviceId, month],
  );
}

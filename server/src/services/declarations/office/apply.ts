import type { Queryable } from '../../../db/db.js';
import { buildingIdOf } from '../../sql.js';

/** Opens (or refreshes) the DECLARED_DOUBTFUL anomaly of a doubtful declaration, for the back office. */
export async function openDoubtfulAnomaly(
  tx: Queryable,
  d: { id: number; deviceId: number; month: string; value: number; previous: number | null; max: number | null },
): Promise<void> {
  const evidence = JSON.stringify({ declarationId: d.id, value: d.value, previous: d.previous, max: d.max });
  await tx.query(
    `WITH dev AS (SELECT d.id, ${buildingIdOf('l')} AS building FROM device d JOIN location l ON l.id = d.location_id
                   WHERE d.id = $1),
     refreshed AS (
       UPDATE anomaly a SET evidence = $3::jsonb, last_seen_at = now() FROM dev
        WHERE a.rule = 'DECLARED_DOUBTFUL' AND a.device_id = dev.id AND a.month = $2::date AND a.state <> 'resolved'
       RETURNING a.id
     )
     INSERT INTO anomaly (rule, building_id, device_id, month, evidence)
     SELECT 'DECLARED_DOUBTFUL', dev.building, dev.id, $2::date, $3::jsonb FROM dev
      WHERE NOT EXISTS (SELECT FROM refreshed)
     ON CONFLICT DO NOTHING`,
    [d.deviceId, d.month, evidence],
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

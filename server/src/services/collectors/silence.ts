import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Db } from '../../db/db.js';
import { type ConnectionSilenceResult, checkConnections } from '../lorawan/silence.js';
import { loadSettings } from '../settings.js';
import { checkUndecoded, type UndecodedResult } from './undecoded.js';

/** Days of collector_heard kept (the health looks at 24 hours; a week back helps an investigation). */
const KEEP_HEARD_DAYS = 8;

export interface SilenceResult {
  silent: number;
  opened: number;
  resolved: number;
  pruned: number;
  /** Meters heard but not decoded (undecoded.ts): how many, and their anomalies opened and resolved. */
  undecoded: UndecodedResult;
  /** Silent LoRaWAN network-server connections (services/lorawan/silence.ts): how many, opened, resolved. */
  connections: ConnectionSilenceResult;
}

/**
 * The collectors job (docs/collectors.md, "A silent collector"): a live collector key
 * with buildings that sent nothing (no telegram, no alarm) for longer than the setting
 * `collector.silentMinutes` (counted from its creation when it never did) has one
 * COLLECTOR_SILENT anomaly, on its first building, naming it and its buildings; it
 * resolves itself when the collector is heard again (or revoked, or loses its
 * buildings). While it is open, the SILENT rule leaves the meters of its buildings
 * alone (services/data-quality/validate.ts). Also drops old hearings, keeps the anomalies of
 * meters heard but not decoded (undecoded.ts), and those of silent LoRaWAN connections, by the
 * same setting (services/lorawan/silence.ts).
 */
export async function checkCollectors(db: Db, now = new Date()): Promise<SilenceResult> {
  const settings = await loadSettings(db);
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<Omit<SilenceResult, 'pruned' | 'undecoded' | 'connections'>>(
      `WITH buildings AS (
         SELECT cl.collector_id, b.id, address_label(b) AS label
           FROM collector_location cl JOIN location b ON b.path && ARRAY[cl.location_id] AND b.level = ${LOCATION_LEVEL.building}
       ), silent AS (
         SELECT k.id, k.name, c.last_contact,
                (SELECT b.id FROM buildings b WHERE b.collector_id = k.id ORDER BY b.label, b.id LIMIT 1) AS building_id,
                (SELECT jsonb_agg(DISTINCT b.label) FROM buildings b WHERE b.collector_id = k.id) AS labels
           FROM collector_key k LEFT JOIN collector_contact c ON c.collector_id = k.id
          WHERE k.revoked_at IS NULL
            AND coalesce(c.last_contact, k.created_at) < $1::timestamptz - make_interval(mins => $2::int)
       ), found AS (
         SELECT s.id AS collector_id, s.building_id,
                jsonb_build_object('collector', s.name, 'buildings', s.labels, 'lastContact', iso(s.last_contact),
                                   'limitMinutes', $2::int) AS evidence
           FROM silent s WHERE s.building_id IS NOT NULL
       ), refreshed AS (
         UPDATE anomaly a SET evidence = f.evidence, last_seen_at = $1::timestamptz, building_id = f.building_id
           FROM found f
          WHERE a.rule = 'COLLECTOR_SILENT' AND a.state <> 'resolved' AND a.collector_id = f.collector_id
         RETURNING a.id
       ), opened AS (
         INSERT INTO anomaly (rule, building_id, collector_id, evidence, opened_at, last_seen_at)
         SELECT 'COLLECTOR_SILENT', f.building_id, f.collector_id, f.evidence, $1::timestamptz, $1::timestamptz
           FROM found f
          WHERE NOT EXISTS (SELECT FROM anomaly a WHERE a.rule = 'COLLECTOR_SILENT' AND a.state <> 'resolved'
                              AND a.collector_id = f.collector_id)
          ORDER BY f.collector_id
         ON CONFLICT DO NOTHING
         RETURNING id
       ), resolved AS (
         UPDATE anomaly a SET state = 'resolved', resolved_at = $1::timestamptz
          WHERE a.rule = 'COLLECTOR_SILENT' AND a.state <> 'resolved'
            AND NOT EXISTS (SELECT FROM found f WHERE f.collector_id = a.collector_id)
         RETURNING a.id
       )
       SELECT (SELECT count(*) FROM found)::int AS silent, (SELECT count(*) FROM opened)::int AS opened,
              (SELECT count(*) FROM resolved)::int AS resolved`,
      [now, settings['collector.silentMinutes']],
    );
    const pruned = await tx.query(
      `DELETE FROM collector_heard WHERE received_at < $1::timestamptz - make_interval(days => ${KEEP_HEARD_DAYS})`,
      [now],
    );
    const undecoded = await checkUndecoded(tx, now, settings['collector.undecodedHours']);
    const connections = await checkConnections(tx, now, settings['collector.silentMinutes']);
    return { ...rows[0]!, pruned: pruned.rowCount, undecoded, connections };
  });
}

import type { Db } from '../../db/db.js';
import { type ConnectionSilenceResult, checkConnections } from '../lorawan/silence.js';
import { loadSettings } from '../settings.js';
import { keepSilenceAnomalies } from '../silent-subjects.js';
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
    const collectors = await keepSilenceAnomalies(
      tx,
      {
        rule: 'COLLECTOR_SILENT',
        column: 'collector_id',
        nameKey: 'collector',
        subjects: `SELECT k.id, k.name, k.created_at, c.last_contact
                     FROM collector_key k LEFT JOIN collector_contact c ON c.collector_id = k.id
                    WHERE k.revoked_at IS NULL`,
        locations: 'SELECT collector_id AS subject_id, location_id FROM collector_location',
      },
      now,
      settings['collector.silentMinutes'],
    );
    const pruned = await tx.query(
      `DELETE FROM collector_heard WHERE received_at < $1::timestamptz - make_interval(days => ${KEEP_HEARD_DAYS})`,
      [now],
    );
    const undecoded = await checkUndecoded(tx, now, settings['collector.undecodedHours']);
    const connections = await checkConnections(tx, now, settings['collector.silentMinutes']);
    return { ...collectors, pruned: pruned.rowCount, undecoded, connections };
  });
}

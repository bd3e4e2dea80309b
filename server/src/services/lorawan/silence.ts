import type { Queryable } from '../../db/db.js';
import { keepSilenceAnomalies, type SilenceCount } from '../silent-subjects.js';

export type ConnectionSilenceResult = SilenceCount;

/**
 * Silent network-server connections (docs/lorawan.md, "A silent connection"), checked by the
 * collectors job beside silent collectors: a connection not deleted, serving buildings, that sent
 * nothing (no uplink, no other event, by the LNS's times up to `now`) for longer than
 * `limitMinutes` (the collectors' `collector.silentMinutes`; counted from its creation when it
 * never sent anything) has one LNS_SILENT anomaly, on its first building, naming it and its
 * buildings. It resolves itself when the connection is heard again, deleted, or serves no
 * building. While it is open, the SILENT rule leaves the LoRaWAN meters of its buildings alone
 * (services/data-quality/validate.ts).
 */
export function checkConnections(tx: Queryable, now: Date, limitMinutes: number): Promise<ConnectionSilenceResult> {
  return keepSilenceAnomalies(
    tx,
    {
      rule: 'LNS_SILENT',
      column: 'lns_connection_id',
      nameKey: 'connection',
      subjects: `SELECT c.id, c.name, c.created_at,
                        greatest((SELECT max(u.received_at) FROM lorawan_uplink u
                                   WHERE u.connection_id = c.id AND u.received_at <= $1::timestamptz),
                                 (SELECT max(e.at) FROM lns_event e
                                   WHERE e.connection_id = c.id AND e.at <= $1::timestamptz)) AS last_contact
                   FROM lns_connection c WHERE c.deleted_at IS NULL`,
      locations: 'SELECT connection_id AS subject_id, location_id FROM lns_connection_location',
    },
    now,
    limitMinutes,
  );
}

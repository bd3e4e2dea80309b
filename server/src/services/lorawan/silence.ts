import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';

export interface ConnectionSilenceResult {
  silent: number;
  opened: number;
  resolved: number;
}

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
export async function checkConnections(
  tx: Queryable,
  now: Date,
  limitMinutes: number,
): Promise<ConnectionSilenceResult> {
  const { rows } = await tx.query<ConnectionSilenceResult>(
    `WITH buildings AS (
       SELECT cl.connection_id, b.id, address_label(b) AS label
         FROM lns_connection_location cl
         JOIN location b ON b.path && ARRAY[cl.location_id] AND b.level = ${LOCATION_LEVEL.building}
     ), heard AS (
       SELECT c.id, c.name, c.created_at,
              greatest((SELECT max(u.received_at) FROM lorawan_uplink u
                         WHERE u.connection_id = c.id AND u.received_at <= $1::timestamptz),
                       (SELECT max(e.at) FROM lns_event e WHERE e.connection_id = c.id AND e.at <= $1::timestamptz))
                AS last_contact
         FROM lns_connection c WHERE c.deleted_at IS NULL
     ), silent AS (
       SELECT h.id, h.name, h.last_contact,
              (SELECT b.id FROM buildings b WHERE b.connection_id = h.id ORDER BY b.label, b.id LIMIT 1) AS building_id,
              (SELECT jsonb_agg(DISTINCT b.label) FROM buildings b WHERE b.connection_id = h.id) AS labels
         FROM heard h
        WHERE coalesce(h.last_contact, h.created_at) < $1::timestamptz - make_interval(mins => $2::int)
     ), found AS (
       SELECT s.id AS connection_id, s.building_id,
              jsonb_build_object('connection', s.name, 'buildings', s.labels, 'lastContact', iso(s.last_contact),
                                 'limitMinutes', $2::int) AS evidence
         FROM silent s WHERE s.building_id IS NOT NULL
     ), refreshed AS (
       UPDATE anomaly a SET evidence = f.evidence, last_seen_at = $1::timestamptz, building_id = f.building_id
         FROM found f
        WHERE a.rule = 'LNS_SILENT' AND a.state <> 'resolved' AND a.lns_connection_id = f.connection_id
       RETURNING a.id
     ), opened AS (
       INSERT INTO anomaly (rule, building_id, lns_connection_id, evidence, opened_at, last_seen_at)
       SELECT 'LNS_SILENT', f.building_id, f.connection_id, f.evidence, $1::timestamptz, $1::timestamptz
         FROM found f
        WHERE NOT EXISTS (SELECT FROM anomaly a WHERE a.rule = 'LNS_SILENT' AND a.state <> 'resolved'
                            AND a.lns_connection_id = f.connection_id)
        ORDER BY f.connection_id
       ON CONFLICT DO NOTHING
       RETURNING id
     ), resolved AS (
       UPDATE anomaly a SET state = 'resolved', resolved_at = $1::timestamptz
        WHERE a.rule = 'LNS_SILENT' AND a.state <> 'resolved'
          AND NOT EXISTS (SELECT FROM found f WHERE f.connection_id = a.lns_connection_id)
       RETURNING a.id
     )
     SELECT (SELECT count(*) FROM found)::int AS silent, (SELECT count(*) FROM opened)::int AS opened,
            (SELECT count(*) FROM resolved)::int AS resolved`,
    [now, limitMinutes],
  );
  return rows[0]!;
}

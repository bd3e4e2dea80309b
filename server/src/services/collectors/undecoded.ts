import type { Tx } from '../../db/db.js';
import { buildingIdOf } from '../sql.js';
import { driverFor } from './drivers.js';

export interface UndecodedResult {
  undecoded: number;
  opened: number;
  resolved: number;
}

/**
 * Meters heard but not decoded (docs/collectors.md, "Heard but not decoded"): a device whose serial
 * collectors have heard for at least `hours`, still heard in the last `hours`, without a single
 * reading in that time (a wrong driver or a wrong key: wmbusmeters prints a telegram without a value,
 * so the meter looks heard and never silent). Each has one METER_UNDECODED anomaly on the device
 * (WRONG_KEY, "possibly a wrong key", when a meter key is stored for it),
 * naming the collector that heard it last, every collector that heard it and the driver its meter
 * file names; it resolves when a reading arrives or the meter is no longer heard. In the caller's
 * transaction (the collectors job).
 */
export async function checkUndecoded(tx: Tx, now: Date, hours: number): Promise<UndecodedResult> {
  const { rows } = await tx.query<{
    device_id: number;
    building_id: number;
    model: string | null;
    collector_id: number | null;
    heard_by: string[];
    telegrams: number;
    last_heard: string;
    keyed: boolean;
  }>(
    `WITH heard AS (
       SELECT ch.meter_id, ch.received_at, ch.collector_id, k.name
         FROM collector_heard ch JOIN collector_key k ON k.id = ch.collector_id
       UNION ALL
       -- A LoRaWAN meter's uplinks are its hearing (docs/lorawan.md): by its connection, no collector.
       SELECT d.device_code, u.received_at, NULL::int, c.name
         FROM lorawan_uplink u JOIN device d ON d.id = u.device_id JOIN lns_connection c ON c.id = u.connection_id
        WHERE u.received_at > $1::timestamptz - interval '9 days'
     ), h AS (
       SELECT ch.meter_id, max(ch.received_at) AS last,
              count(*) FILTER (WHERE ch.received_at > $1::timestamptz - make_interval(hours => $2::int))::int AS n,
              (array_agg(ch.collector_id ORDER BY ch.received_at DESC, ch.collector_id))[1] AS collector_id,
              array_agg(DISTINCT ch.name ORDER BY ch.name)
                FILTER (WHERE ch.received_at > $1::timestamptz - make_interval(hours => $2::int)) AS heard_by
         FROM heard ch
        WHERE ch.received_at <= $1::timestamptz
        GROUP BY ch.meter_id
       HAVING max(ch.received_at) > $1::timestamptz - make_interval(hours => $2::int)
          AND min(ch.received_at) <= $1::timestamptz - make_interval(hours => $2::int)
     )
     SELECT d.id AS device_id, ${buildingIdOf('l')} AS building_id, d.model, h.collector_id, h.heard_by,
            h.n AS telegrams, iso(h.last) AS last_heard,
            EXISTS (SELECT FROM meter_key k WHERE k.device_id = d.id) AS keyed
       FROM h JOIN device d ON d.device_code = h.meter_id AND coalesce(d.removed_at, 'infinity') > $1::timestamptz
       JOIN location l ON l.id = d.location_id
      WHERE NOT EXISTS (SELECT FROM reading r WHERE r.device_id = d.id
                           AND r.ts > $1::timestamptz - make_interval(hours => $2::int) AND r.ts <= $1::timestamptz)
      ORDER BY d.id`,
    [now, hours],
  );
  const evidence = rows.map((r) =>
    JSON.stringify({
      heardBy: r.heard_by,
      driver: driverFor(r.model),
      telegrams: r.telegrams,
      lastHeard: r.last_heard,
      limitHours: hours,
    }),
  );
  // This check's anomalies: METER_UNDECODED, and WRONG_KEY with a `heardBy` (the ingest's WRONG_KEY of
  // implausible values has none, services/ingest/suspect-values.ts).
  const mine = `a.state <> 'resolved' AND (a.rule = 'METER_UNDECODED' OR (a.rule = 'WRONG_KEY' AND a.evidence ? 'heardBy'))`;
  const { rows: counts } = await tx.query<{ opened: number; resolved: number }>(
    `WITH found AS (
       SELECT * FROM unnest($2::int[], $3::int[], $4::int[], $5::jsonb[], $6::text[])
                  AS f(device_id, building_id, collector_id, evidence, rule)
     ), refreshed AS (
       UPDATE anomaly a SET evidence = f.evidence, last_seen_at = $1::timestamptz, collector_id = f.collector_id
         FROM found f
        WHERE ${mine} AND a.rule = f.rule AND a.device_id = f.device_id
       RETURNING a.id
     ), opened AS (
       INSERT INTO anomaly (rule, building_id, device_id, collector_id, evidence, opened_at, last_seen_at)
       SELECT f.rule, f.building_id, f.device_id, f.collector_id, f.evidence, $1::timestamptz, $1::timestamptz
         FROM found f
        WHERE NOT EXISTS (SELECT FROM anomaly a WHERE ${mine} AND a.rule = f.rule AND a.device_id = f.device_id)
        ORDER BY f.device_id
       ON CONFLICT DO NOTHING
       RETURNING id
     ), resolved AS (
       UPDATE anomaly a SET state = 'resolved', resolved_at = $1::timestamptz
        WHERE ${mine} AND NOT EXISTS (SELECT FROM found f WHERE f.device_id = a.device_id AND f.rule = a.rule)
       RETURNING a.id
     )
     SELECT (SELECT count(*) FROM opened)::int AS opened, (SELECT count(*) FROM resolved)::int AS resolved`,
    [
      now,
      rows.map((r) => r.device_id),
      rows.map((r) => r.building_id),
      rows.map((r) => r.collector_id),
      evidence,
      // A meter with a stored key that stops decoding: possibly a wrong key (docs/collectors.md, "A wrong key").
      rows.map((r) => (r.keyed ? 'WRONG_KEY' : 'METER_UNDECODED')),
    ],
  );
  return { undecoded: rows.length, ...counts[0]! };
}

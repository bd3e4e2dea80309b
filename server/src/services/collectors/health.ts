import { type CollectorHealth, type CollectorMeter, WMBUS_METER_ID_PATTERN } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { loadSettings } from '../settings.js';
import { EXPECTED_DEVICES } from './config.js';

/** Alarm events listed per collector. */
const EVENTS = 5;

/**
 * Each live collector key's health over the 24 hours before `now` (docs/collectors.md,
 * "Health"): last contact, telegrams per hour (24 buckets, oldest first), its meters
 * heard against expected, its meters heard only by another collector, the clock of its
 * latest telegram, its latest alarm events, and whether it is silent (an unresolved
 * COLLECTOR_SILENT anomaly, opened by the collectors job); its meters left out of its
 * configuration (a serial that is no wM-Bus id) and those heard but not decoded.
 */
export async function listCollectorHealth(db: Queryable, now = new Date()): Promise<CollectorHealth[]> {
  const settings = await loadSettings(db);
  const { rows } = await db.query<CollectorHealth>(
    `WITH k AS (SELECT id, name FROM collector_key WHERE revoked_at IS NULL),
     expected AS (
       SELECT DISTINCT cl.collector_id, d.device_code AS meter_id
         FROM collector_location cl JOIN location l ON l.path && ARRAY[cl.location_id]
         JOIN device d ON d.location_id = l.id
        WHERE coalesce(d.removed_at, 'infinity') > $1::timestamptz
     ),
     heard AS (
       SELECT DISTINCT collector_id, meter_id FROM collector_heard
        WHERE received_at > $1::timestamptz - interval '24 hours' AND received_at <= $1::timestamptz
     )
     SELECT k.id AS "Id", k.name AS "Name",
            coalesce((SELECT json_agg(json_build_object('Id', l.id, 'Label', address_label(l), 'Level', l.level)
                                      ORDER BY address_label(l), l.id)
                        FROM collector_location cl JOIN location l ON l.id = cl.location_id
                       WHERE cl.collector_id = k.id), '[]') AS "Locations",
            iso(c.last_contact) AS "LastContact",
            EXISTS (SELECT FROM anomaly a WHERE a.collector_id = k.id AND a.rule = 'COLLECTOR_SILENT'
                       AND a.state <> 'resolved') AS "Silent",
            (SELECT array_agg(coalesce(n.n, 0) ORDER BY h.h)
               FROM generate_series(0, 23) AS h(h)
               LEFT JOIN (
                 SELECT 23 - floor(extract(epoch FROM $1::timestamptz - ch.received_at) / 3600)::int AS h, count(*)::int AS n
                   FROM collector_heard ch
                  WHERE ch.collector_id = k.id AND ch.received_at > $1::timestamptz - interval '24 hours'
                    AND ch.received_at <= $1::timestamptz
                  GROUP BY 1) n ON n.h = h.h) AS "TelegramsPerHour",
            (SELECT count(*)::int FROM expected e WHERE e.collector_id = k.id) AS "Expected",
            (SELECT count(*)::int FROM expected e JOIN heard h USING (collector_id, meter_id)
              WHERE e.collector_id = k.id) AS "Heard",
            coalesce((SELECT array_agg(e.meter_id ORDER BY e.meter_id) FROM expected e
                       WHERE e.collector_id = k.id
                         AND NOT EXISTS (SELECT FROM heard h WHERE h.collector_id = k.id AND h.meter_id = e.meter_id)
                         AND EXISTS (SELECT FROM heard h WHERE h.collector_id <> k.id AND h.meter_id = e.meter_id)),
                     '{}') AS "HeardElsewhere",
            round(extract(epoch FROM lt.stamped_at - lt.received_at))::float8 AS "ClockSkewSeconds",
            CASE WHEN lt.stamped_at < '2000-01-01' THEN 'noClock'
                 WHEN abs(extract(epoch FROM lt.stamped_at - lt.received_at)) > $2::int * 60 THEN 'skew' END AS "ClockFlag",
            coalesce((SELECT json_agg(json_build_object('At', iso(ev.received_at), 'Type', ev.alarm_type,
                                                        'Message', ev.message) ORDER BY ev.received_at DESC, ev.id DESC)
                        FROM (SELECT * FROM collector_event WHERE collector_id = k.id
                               ORDER BY received_at DESC, id DESC LIMIT ${EVENTS}) ev), '[]') AS "Events",
            coalesce((SELECT array_agg(e.meter_id ORDER BY e.meter_id) FROM expected e
                       WHERE e.collector_id = k.id AND e.meter_id !~ $3), '{}') AS "LeftOut",
            coalesce((SELECT json_agg(json_build_object('MeterId', d.device_code, 'Driver', a.evidence ->> 'driver',
                                                        'AnomalyId', a.id, 'WrongKey', a.rule = 'WRONG_KEY') ORDER BY d.device_code)
                        FROM anomaly a JOIN device d ON d.id = a.device_id
                       WHERE a.state <> 'resolved' AND a.collector_id = k.id
                         AND (a.rule = 'METER_UNDECODED' OR (a.rule = 'WRONG_KEY' AND a.evidence ? 'heardBy'))), '[]')
              AS "Undecoded"
       FROM k LEFT JOIN collector_contact c ON c.collector_id = k.id
       LEFT JOIN LATERAL (
         SELECT ch.stamped_at, ch.received_at FROM collector_heard ch
          WHERE ch.collector_id = k.id AND ch.stamped_at IS NOT NULL AND ch.received_at <= $1::timestamptz
          ORDER BY ch.received_at DESC LIMIT 1) lt ON true
      ORDER BY k.name, k.id`,
    [now, settings['collector.clockSkewMinutes'], WMBUS_METER_ID_PATTERN],
  );
  return rows;
}

/**
 * A live collector key's meters (those of its buildings, and any it heard in the last
 * 24 hours), each with every collector that heard it then: telegrams, rssi_dbm median
 * and minimum (null when none carried a known signal), when last; and whether a key is
 * stored and since when. 404 for an unknown or revoked key.
 */
export async function listCollectorMeters(
  db: Queryable,
  collectorId: number,
  now = new Date(),
): Promise<CollectorMeter[]> {
  const { rows: key } = await db.query('SELECT 1 FROM collector_key WHERE id = $1 AND revoked_at IS NULL', [
    collectorId,
  ]);
  if (!key[0]) throw notFound('collectorKeyNotFound');
  const { rows } = await db.query<CollectorMeter>(
    `WITH e AS (${EXPECTED_DEVICES}),
     heard AS (
       SELECT ch.meter_id, ch.collector_id, count(*)::int AS n,
              percentile_cont(0.5) WITHIN GROUP (ORDER BY ch.rssi_dbm) AS median, min(ch.rssi_dbm) AS min,
              max(ch.received_at) AS last
         FROM collector_heard ch
        WHERE ch.received_at > $2::timestamptz - interval '24 hours' AND ch.received_at <= $2::timestamptz
          AND ch.meter_id IN (SELECT device_code FROM e
                              UNION SELECT meter_id FROM collector_heard
                                     WHERE collector_id = $1 AND received_at > $2::timestamptz - interval '24 hours')
        GROUP BY ch.meter_id, ch.collector_id
     ),
     meters AS (SELECT device_code AS meter_id FROM e UNION SELECT meter_id FROM heard WHERE collector_id = $1)
     SELECT m.meter_id AS "MeterId", d.id AS "DeviceId", address_label(l) AS "Address",
            m.meter_id IN (SELECT device_code FROM e) AS "Expected",
            mk.device_id IS NOT NULL AS "HasKey", iso(mk.imported_at) AS "KeySince",
            coalesce((SELECT json_agg(json_build_object('CollectorId', h.collector_id, 'Collector', ck.name,
                                        'Telegrams', h.n, 'RssiMedian', h.median, 'RssiMin', h.min,
                                        'LastHeard', iso(h.last)) ORDER BY ck.name, h.collector_id)
                        FROM heard h JOIN collector_key ck ON ck.id = h.collector_id
                       WHERE h.meter_id = m.meter_id), '[]') AS "HeardBy"
       FROM meters m LEFT JOIN device d ON d.device_code = m.meter_id
       LEFT JOIN location l ON l.id = d.location_id
       LEFT JOIN meter_key mk ON mk.device_id = d.id
      ORDER BY l.path, m.meter_id`,
    [collectorId, now],
  );
  return rows;
}

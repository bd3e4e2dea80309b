import type {
  LnsConnectionHealth,
  LorawanDeviceHealth,
  LorawanDeviceRow,
  LorawanUnmatched,
  listLorawanDevices,
  listLorawanUnmatched,
  QueryOf,
  ResponseOf,
} from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { paged as envelope } from '../paging.js';
import { getConnection } from './connections.js';
import { effectiveDecoder } from './decoding.js';

const PAGE_SIZE = 20;

/** One page of a list: `rows` gets LIMIT and OFFSET after its own parameters. */
async function paged<T>(
  db: Queryable,
  q: { page?: number; pageSize?: number },
  s: { count: string; rows: string; params: unknown[] },
) {
  const pageSize = q.pageSize ?? PAGE_SIZE;
  const page = q.page ?? 1;
  const n = s.params.length;
  const { rows } = await db.query<T>(`${s.rows} LIMIT $${n + 1} OFFSET $${n + 2}`, [
    ...s.params,
    pageSize,
    (page - 1) * pageSize,
  ]);
  const { rows: count } = await db.query<{ n: number }>(s.count, s.params);
  return envelope(rows, count[0]!.n, page, pageSize);
}

/**
 * Radio health (docs/lorawan.md, "Health"): per connection and per device, read from the
 * uplinks and events kept. Times are the LNS's; days are the provider's (the session's zone).
 */

/** Frame-counter gaps larger than this are a reset or a new session, not lost uplinks (LoRaWAN's MAX_FCNT_GAP). */
const MAX_FCNT_GAP = 16_384;

/** Uplinks lost in gaps of the frame counter, per device, since `$since`: a reset (lower, or a new DevAddr) is not a gap. */
const LOST = (where: string) => `SELECT device_id, coalesce(sum(f_cnt - prev - 1), 0)::int AS lost FROM (
    SELECT device_id, f_cnt, dev_addr,
           lag(f_cnt) OVER w AS prev, lag(dev_addr) OVER w AS prev_addr
      FROM lorawan_uplink WHERE ${where} AND f_cnt IS NOT NULL
    WINDOW w AS (PARTITION BY device_id ORDER BY received_at, f_cnt)) x
   WHERE prev IS NOT NULL AND dev_addr = prev_addr AND f_cnt > prev + 1 AND f_cnt - prev <= ${MAX_FCNT_GAP}
   GROUP BY device_id`;

const PER_DAY = (table: string, where: string) => `coalesce((
    SELECT json_agg(json_build_object('Day', to_char(d.day, 'YYYY-MM-DD'), 'Count', coalesce(c.n, 0)) ORDER BY d.day)
      FROM generate_series(date_trunc('day', $2::timestamptz) - interval '13 days', date_trunc('day', $2::timestamptz),
                           interval '1 day') AS d(day)
      LEFT JOIN (SELECT date_trunc('day', received_at) AS day, count(*)::int AS n FROM ${table}
                  WHERE ${where} AND received_at >= date_trunc('day', $2::timestamptz) - interval '13 days'
                  GROUP BY 1) c ON c.day = d.day), '[]')`;

export async function connectionHealth(db: Queryable, id: number, now: Date): Promise<LnsConnectionHealth> {
  const c = await getConnection(db, id);
  const { rows } = await db.query<Omit<LnsConnectionHealth, 'Id' | 'Name' | 'Kind'>>(
    `WITH recent AS (
       SELECT * FROM lorawan_uplink WHERE connection_id = $1 AND received_at > $2::timestamptz - interval '24 hours'
     ), served AS (
       SELECT d.id FROM device d JOIN location l ON l.id = d.location_id
        WHERE d.dev_eui IS NOT NULL AND d.removed_at IS NULL
          AND EXISTS (SELECT FROM lns_connection_location cl WHERE cl.connection_id = $1 AND cl.location_id = ANY (l.path))
     ), last AS (
       SELECT greatest((SELECT max(received_at) FROM lorawan_uplink WHERE connection_id = $1),
                       (SELECT max(at) FROM lns_event WHERE connection_id = $1)) AS at
     )
     SELECT iso((SELECT at FROM last)) AS "LastEvent",
            EXISTS (SELECT FROM anomaly a WHERE a.lns_connection_id = $1 AND a.rule = 'LNS_SILENT'
                       AND a.state <> 'resolved') AS "Silent",
            ${PER_DAY('lorawan_uplink', 'connection_id = $1')} AS "UplinksPerDay",
            (SELECT coalesce(json_object_agg(kind, n), '{}') FROM (
               SELECT 'up' AS kind, count(*)::int AS n FROM recent HAVING count(*) > 0
               UNION ALL
               SELECT kind, count(*)::int FROM lns_event
                WHERE connection_id = $1 AND at > $2::timestamptz - interval '24 hours' GROUP BY kind) k) AS "EventsLast24h",
            (SELECT count(*)::int FROM served) AS "Expected",
            (SELECT count(DISTINCT device_id)::int FROM recent WHERE device_id IN (SELECT id FROM served)) AS "DevicesHeard",
            (SELECT count(DISTINCT dev_eui)::int FROM lorawan_uplink WHERE connection_id = $1 AND device_id IS NULL)
              AS "Unmatched",
            coalesce((SELECT json_agg(g ORDER BY g."GatewayId") FROM (
               SELECT e.v ->> 'id' AS "GatewayId", iso(max(u.received_at)) AS "LastSeen",
                      count(DISTINCT u.dev_eui) FILTER (WHERE u.received_at > $2::timestamptz - interval '24 hours')::int
                        AS "Devices",
                      count(*) FILTER (WHERE u.received_at > $2::timestamptz - interval '24 hours')::int AS "Uplinks"
                 FROM lorawan_uplink u, jsonb_array_elements(u.gateways) e(v)
                WHERE u.connection_id = $1 AND u.received_at > $2::timestamptz - interval '30 days'
                GROUP BY 1) g), '[]') AS "Gateways",
            coalesce((SELECT json_agg(x ORDER BY x."At" DESC) FROM (
               SELECT iso(at) AS "At", dev_eui AS "DevEui", coalesce(code, 'UNKNOWN') AS "Code",
                      coalesce(description, '') AS "Description"
                 FROM lns_event WHERE connection_id = $1 AND kind = 'log' ORDER BY at DESC LIMIT 50) x), '[]')
              AS "CodecErrors",
            (SELECT count(*)::int FROM lns_event
              WHERE connection_id = $1 AND kind = 'log' AND at > $2::timestamptz - interval '24 hours')
              AS "CodecErrorsLast24h",
            coalesce((SELECT json_agg(x ORDER BY x."DevEui") FROM (
               SELECT DISTINCT ON (r.device_id) r.device_id AS "DeviceId", r.dev_eui AS "DevEui",
                      r.reason AS "Reason",
                      (SELECT count(*)::int FROM recent q WHERE q.device_id = r.device_id AND q.value IS NULL) AS "Uplinks"
                 FROM recent r WHERE r.device_id IS NOT NULL
                ORDER BY r.device_id, r.received_at DESC) x WHERE x."Reason" IS NOT NULL), '[]') AS "Undecoded",
            coalesce((SELECT json_agg(x ORDER BY x."DevEui") FROM (
               SELECT DISTINCT ON (r.device_id) r.device_id AS "DeviceId", r.dev_eui AS "DevEui",
                      extract(epoch FROM r.meter_ts - r.received_at)::float8 AS "SkewSeconds"
                 FROM recent r WHERE r.device_id IS NOT NULL AND r.meter_ts IS NOT NULL
                ORDER BY r.device_id, r.received_at DESC) x
              WHERE abs(x."SkewSeconds") > 60 * (SELECT (value #>> '{}')::float8 FROM dq_setting
                                                  WHERE key = 'collector.clockSkewMinutes')), '[]') AS "ClockOff"`,
    [id, now],
  );
  return { Id: c.Id, Name: c.Name, Kind: c.Kind, ...rows[0]! };
}

const UPLINK_COLUMNS = `iso(u.received_at) AS "ReceivedAt", iso(u.meter_ts) AS "MeterTime", u.f_cnt::int AS "FCnt",
  u.f_port::int AS "FPort", encode(u.payload, 'hex') AS "Payload", c.name AS "Connection", u.decoder AS "Decoder",
  u.value::float8 AS "Value", u.decoded AS "Values", u.alarms AS "Alarms", u.reason AS "Reason",
  u.rssi::float8 AS "Rssi", u.snr::float8 AS "Snr"`;

export async function deviceHealth(db: Queryable, id: number, now: Date): Promise<LorawanDeviceHealth> {
  const { rows } = await db.query<
    Omit<LorawanDeviceHealth, 'EffectiveDecoder'> & { model: string | null; has_mapping: boolean }
  >(
    `WITH mine AS (SELECT * FROM lorawan_uplink WHERE device_id = $1),
     latest AS (SELECT * FROM mine ORDER BY received_at DESC, id DESC LIMIT 1)
     SELECT d.id AS "DeviceId", d.dev_eui AS "DevEui", d.decoder AS "Decoder", d.model,
            EXISTS (SELECT FROM lorawan_mapping m WHERE m.model_key = lower(regexp_replace(trim(d.model), '\\s+', ' ', 'g')))
              AS has_mapping,
            iso((SELECT received_at FROM latest)) AS "LastUplink", (SELECT f_cnt::int FROM latest) AS "LastFCnt",
            (SELECT rssi::float8 FROM latest) AS "Rssi", (SELECT snr::float8 FROM latest) AS "Snr",
            coalesce((SELECT json_agg(g ORDER BY g."LastSeen" DESC) FROM (
               SELECT DISTINCT ON (e.v ->> 'id') e.v ->> 'id' AS "GatewayId", iso(u.received_at) AS "LastSeen",
                      (e.v ->> 'rssi')::float8 AS "Rssi", (e.v ->> 'snr')::float8 AS "Snr",
                      count(*) OVER (PARTITION BY e.v ->> 'id')::int AS "Uplinks"
                 FROM mine u, jsonb_array_elements(u.gateways) e(v)
                WHERE u.received_at > $2::timestamptz - interval '30 days'
                ORDER BY e.v ->> 'id', u.received_at DESC) g), '[]') AS "Gateways",
            ${PER_DAY('mine', 'true')} AS "UplinksPerDay",
            coalesce((SELECT lost FROM (${LOST("device_id = $1 AND received_at > $2::timestamptz - interval '30 days'")}) x), 0)
              AS "LostLast30d",
            (SELECT json_build_object('Level', e.battery, 'ExternalPower', coalesce(e.external_power, false),
                                      'Margin', e.margin, 'At', iso(e.at))
               FROM lns_event e WHERE e.kind = 'status' AND e.dev_eui = d.dev_eui ORDER BY e.at DESC LIMIT 1) AS "Battery",
            (SELECT extract(epoch FROM meter_ts - received_at)::float8 FROM mine WHERE meter_ts IS NOT NULL
              ORDER BY received_at DESC LIMIT 1) AS "ClockSkewSeconds",
            coalesce((SELECT json_agg(x ORDER BY x."ReceivedAt" DESC) FROM (
               SELECT ${UPLINK_COLUMNS} FROM mine u JOIN lns_connection c ON c.id = u.connection_id
                ORDER BY u.received_at DESC, u.id DESC LIMIT 50) x), '[]') AS "Uplinks"
       FROM device d WHERE d.id = $1`,
    [id, now],
  );
  const r = rows[0];
  if (!r) throw notFound('lorawanDeviceNotFound');
  const { model, has_mapping, ...health } = r;
  const skewLimit = await skewMinutes(db);
  return {
    ...health,
    LostLast30d: Number(health.LostLast30d),
    EffectiveDecoder: effectiveDecoder({ decoder: r.Decoder, model, hasMapping: has_mapping }),
    ClockFlag: health.ClockSkewSeconds !== null && Math.abs(health.ClockSkewSeconds) > skewLimit * 60 ? 'skew' : null,
  };
}

async function skewMinutes(db: Queryable): Promise<number> {
  const { rows } = await db.query<{ v: number | null }>(
    "SELECT (value #>> '{}')::float8 AS v FROM dq_setting WHERE key = 'collector.clockSkewMinutes'",
  );
  return rows[0]?.v ?? 10;
}

export async function listDevices(
  db: Queryable,
  q: QueryOf<typeof listLorawanDevices>,
  now: Date,
): Promise<ResponseOf<typeof listLorawanDevices>> {
  const search = q.search?.trim() ? `${q.search.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%` : null;
  const where = `d.dev_eui IS NOT NULL AND d.removed_at IS NULL
      AND ($1::text IS NULL OR d.dev_eui ILIKE $1 OR d.device_code ILIKE $1)
      AND ($2::int IS NULL OR EXISTS (SELECT FROM lns_connection_location cl
                                       WHERE cl.connection_id = $2 AND cl.location_id = ANY (l.path)))`;
  return paged<LorawanDeviceRow>(db, q, {
    count: `SELECT count(*)::int AS n FROM device d JOIN location l ON l.id = d.location_id
             WHERE ${where} AND $3::timestamptz IS NOT NULL`,
    rows: `SELECT d.id AS "DeviceId", d.dev_eui AS "DevEui", d.device_code AS "DeviceCode", d.model AS "Model",
                  d.decoder AS "Decoder", address_label(l) AS "Address",
                  iso(u.received_at) AS "LastUplink", u.rssi::float8 AS "Rssi", u.snr::float8 AS "Snr",
                  coalesce(lost.lost, 0)::int AS "LostLast30d",
                  (SELECT e.battery::float8 FROM lns_event e WHERE e.kind = 'status' AND e.dev_eui = d.dev_eui
                    ORDER BY e.at DESC LIMIT 1) AS "BatteryLevel",
                  u.reason AS "LastReason"
             FROM device d JOIN location l ON l.id = d.location_id
             LEFT JOIN LATERAL (SELECT * FROM lorawan_uplink x WHERE x.device_id = d.id
                                 ORDER BY x.received_at DESC LIMIT 1) u ON true
             LEFT JOIN LATERAL (${LOST("device_id = d.id AND received_at > $3::timestamptz - interval '30 days'")}) lost
               ON true
            WHERE ${where}
            ORDER BY address_label(l), d.device_code, d.id`,
    params: [search, q.connectionId ?? null, now],
  });
}

export async function listUnmatched(
  db: Queryable,
  q: QueryOf<typeof listLorawanUnmatched>,
): Promise<ResponseOf<typeof listLorawanUnmatched>> {
  const devEui = q.devEui?.trim() ? q.devEui.trim().toUpperCase() : null;
  const grouped = `SELECT u.dev_eui, u.connection_id, min(u.received_at) AS first_seen, max(u.received_at) AS last_seen,
        count(*)::int AS n FROM lorawan_uplink u
       WHERE u.device_id IS NULL AND ($1::text IS NULL OR u.dev_eui = $1) GROUP BY 1, 2`;
  return paged<LorawanUnmatched>(db, q, {
    count: `SELECT count(*)::int AS n FROM (${grouped}) g`,
    rows: `SELECT g.dev_eui AS "DevEui", g.connection_id AS "ConnectionId", c.name AS "Connection",
                  last.device_name AS "DeviceName", iso(g.first_seen) AS "FirstSeen", iso(g.last_seen) AS "LastSeen",
                  g.n AS "Count", last.f_port::int AS "LastFPort", encode(last.payload, 'hex') AS "LastPayload"
             FROM (${grouped}) g JOIN lns_connection c ON c.id = g.connection_id
             CROSS JOIN LATERAL (SELECT * FROM lorawan_uplink x WHERE x.dev_eui = g.dev_eui
                                   AND x.connection_id = g.connection_id AND x.device_id IS NULL
                                 ORDER BY x.received_at DESC LIMIT 1) last
            ORDER BY g.last_seen DESC, g.dev_eui`,
    params: [devEui],
  });
}

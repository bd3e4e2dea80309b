-- The statement that writes a batch of LoRaWAN uplinks (services/lorawan/store-uplinks.ts,
-- STORE_UPLINKS_STATEMENT: the uplinks, their readings through the one reading writer, the months
-- to compute again and device_status; docs/lorawan.md, "How uplinks are written"), as a function:
-- PL/pgSQL keeps one plan of it for the session, so a batch no longer pays the parsing and
-- planning of the eight-part statement (about a fifth of PostgreSQL's CPU per uplink,
-- docs/benchmarks.md, "LoRaWAN ingest"). A plan kept by the database's session also holds behind
-- a pooler in transaction mode (docs/scaling.md), where prepared statements would not.
-- The body is the statement the server builds, word for word: store-uplinks-function.test.ts
-- fails when they differ (a change to the reading writer then needs a migration that replaces
-- this function). $1 is the batch's rows as JSON, as the statement reads them; a row decoded with a
-- device lookup that no longer holds comes back stale, unwritten (the server decodes it again).
CREATE FUNCTION lorawan_store_uplinks(uplinks json)
  RETURNS TABLE (stored_ord integer, gave_reading boolean, is_stale boolean)
  -- One plan for every call: a plan made for each batch would be planned again every time.
  LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
  WITH x AS (
       SELECT x.*
         FROM ROWS FROM (json_to_recordset($1::json) AS (
                connection_id int, dev_eui text, dev_addr text, f_cnt bigint, f_port smallint, payload text,
                dedup_id uuid, received_at timestamptz, meter_ts timestamptz, device_id int, device_name text,
                decoder text, value numeric, decoded jsonb, alarms text[], reason text, rssi real, snr real,
                gateways jsonb, lns_object jsonb, ts timestamptz, fp text))
              WITH ORDINALITY AS x(connection_id, dev_eui, dev_addr, f_cnt, f_port, payload, dedup_id, received_at,
                                   meter_ts, device_id, device_name, decoder, value, decoded, alarms, reason, rssi, snr,
                                   gateways, lns_object, ts, fp, ord)
     ), now_known AS MATERIALIZED (
       -- One lookup for the batch (not inlined into the check below, which would run it per row).
       SELECT f.dev_eui, f.connection_id, f.fp
         FROM (SELECT array_agg(dev_eui) AS e, array_agg(connection_id) AS c FROM x) a,
              lorawan_devices(a.e, a.c) f
        WHERE f.served
     ), i AS (
       SELECT x.connection_id, x.dev_eui, x.dev_addr, x.f_cnt, x.f_port, decode(x.payload, 'hex') AS payload,
              x.dedup_id, x.received_at, x.meter_ts, x.device_id, x.device_name, x.decoder, x.value, x.decoded,
              x.alarms, x.reason, x.rssi, x.snr, x.gateways, x.lns_object, x.ts, x.ord
         FROM x
        WHERE x.fp IS NOT DISTINCT FROM (SELECT k.fp FROM now_known k
                                          WHERE k.dev_eui = x.dev_eui AND k.connection_id = x.connection_id LIMIT 1)
     ), u AS (
       INSERT INTO lorawan_uplink (connection_id, dev_eui, dev_addr, f_cnt, f_port, payload, dedup_id, received_at,
                                   meter_ts, device_id, device_name, decoder, value, decoded, alarms, reason, rssi, snr,
                                   gateways, lns_object)
       SELECT connection_id, dev_eui, dev_addr, f_cnt, f_port, payload, dedup_id, received_at, meter_ts, device_id,
              device_name, decoder, value, decoded, alarms, reason, rssi, snr, gateways, lns_object
         FROM i ORDER BY dev_eui, dev_addr, f_cnt, payload, ord
       ON CONFLICT DO NOTHING
       RETURNING id, dev_eui, dev_addr, f_cnt, payload, dedup_id, device_id, value, alarms
     ), s AS (
       SELECT DISTINCT ON (u.id) u.id, u.device_id, u.value, u.alarms, i.meter_ts, i.ts, i.ord
         FROM u JOIN i ON i.dev_eui = u.dev_eui AND i.dev_addr = u.dev_addr AND i.payload = u.payload
                      AND i.f_cnt IS NOT DISTINCT FROM u.f_cnt AND i.dedup_id IS NOT DISTINCT FROM u.dedup_id
        ORDER BY u.id, i.ord
     ),
     written AS (
       INSERT INTO reading (device_id, ts, meter_ts, value)
       SELECT device_id, ts, meter_ts, value FROM s WHERE device_id IS NOT NULL AND value IS NOT NULL ORDER BY 1, 2
       ON CONFLICT DO NOTHING
       RETURNING device_id, ts
     ), pending AS (
       INSERT INTO dq_pending (device_id, month)
       SELECT DISTINCT device_id, m::date FROM written,
       LATERAL (VALUES (date_trunc('month', ts)), (date_trunc('month', ts - interval '1 microsecond'))) AS x(m)
        ORDER BY 1, 2
       ON CONFLICT DO NOTHING
     ), seen AS (
       INSERT INTO device_status AS s
         (device_id, last_seen, telegram_ts, flags, set_date, set_value)
       SELECT l.device_id, l.ts, l.ts, l.flags, sd.set_date, sd.set_value
         FROM (SELECT DISTINCT ON (device_id) device_id, ts, alarms AS flags FROM s WHERE device_id IS NOT NULL
              ORDER BY device_id, ts DESC, ord DESC) l LEFT JOIN (SELECT device_id, NULL::date AS set_date, NULL::numeric AS set_value FROM s WHERE false) sd USING (device_id)
        ORDER BY l.device_id
       ON CONFLICT (device_id) DO UPDATE SET
         last_seen = greatest(s.last_seen, excluded.last_seen),
         telegram_ts = greatest(s.telegram_ts, excluded.telegram_ts),
         flags = CASE WHEN excluded.telegram_ts >= coalesce(s.telegram_ts, '-infinity') THEN excluded.flags
                      ELSE s.flags END,
         set_value = CASE WHEN excluded.set_date >= coalesce(s.set_date, '-infinity') THEN excluded.set_value
                          ELSE s.set_value END,
         set_date = greatest(s.set_date, excluded.set_date)
     )
     SELECT s.ord::int AS ord,
                  (w.device_id IS NOT NULL
                   AND row_number() OVER (PARTITION BY s.device_id, s.ts, w.device_id IS NOT NULL ORDER BY s.ord) = 1)
                    AS reading,
                  false AS stale
             FROM s LEFT JOIN written w ON s.value IS NOT NULL AND w.device_id = s.device_id AND w.ts = s.ts
           UNION ALL
           SELECT x.ord::int, false, true FROM x WHERE NOT EXISTS (SELECT FROM i WHERE i.ord = x.ord);
END
$$;

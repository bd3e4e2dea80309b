-- LastSeen of the device screens is `device_status.last_seen`, one join away
-- (it was the greater of that and a probe of `reading` per device, because
-- COPY loads could add readings without it: docs/benchmarks.md). From now on
-- every path that inserts readings keeps it, once per statement or batch:
-- the ingest statements (telegrams, CSV) in their own upsert, the others
-- (a device's initial reading, the demo seed and top-up, test fixtures, the
-- benchmark's loader) by calling `keep_last_seen` with the devices they wrote.

-- Raises device_status.last_seen of the given devices to their latest reading
-- (one index probe each); a device without a status row gets one with only
-- last_seen (telegram_ts null: it has sent no telegram yet).
CREATE FUNCTION keep_last_seen(ids integer[]) RETURNS void LANGUAGE sql AS $$
  INSERT INTO device_status AS s (device_id, last_seen)
  SELECT d.id, m.ts
    FROM device d
    CROSS JOIN LATERAL (SELECT max(r.ts) AS ts FROM reading r WHERE r.device_id = d.id) m
   WHERE d.id = ANY (ids) AND m.ts IS NOT NULL
   ORDER BY d.id
  ON CONFLICT (device_id) DO UPDATE SET last_seen = excluded.last_seen
   WHERE excluded.last_seen > s.last_seen
$$;

-- Existing databases: every device's latest reading.
SELECT keep_last_seen(array(SELECT id FROM device));

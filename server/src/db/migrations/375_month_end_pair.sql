-- The month ends' pairs (docs/statements.md, "The month ends' pairs"): per device and month, the
-- month end before the month (its start) and the one at its end, as `month_end` holds them. The
-- statements' parts read one narrow row per device-month here instead of joining `month_end` twice.
-- Kept by `month_end`'s triggers in the statement that changes a month end, so never behind it.
CREATE TABLE month_end_pair (
  device_id     integer NOT NULL REFERENCES device (id),
  -- The month's first day; start: month_end of the month before, end: month_end of this month.
  month         date NOT NULL,
  start_value   numeric,
  start_source  text,
  end_value     numeric,
  end_source    text,
  PRIMARY KEY (device_id, month)
);
CREATE INDEX month_end_pair_month ON month_end_pair (month);

-- The pairs of the device-months (d, m) given (a month end of m belongs to the pairs of m and m + 1),
-- written again from month_end; a pair with neither month end is removed. Each pair's row is there and
-- locked before month_end is read (a statement of its own, with a fresh snapshot): two transactions
-- changing the two month ends of one pair write it one after the other, the second from what the first
-- committed. Joins by equality only (transition tables have no index: no lookups row by row in them).
CREATE FUNCTION month_end_pair_keys(devices integer[], months date[]) RETURNS TABLE (device_id integer, month date)
LANGUAGE sql IMMUTABLE AS $$
  SELECT DISTINCT k.device_id, k.month
    FROM unnest(devices, months) AS x(d, m)
   CROSS JOIN LATERAL (VALUES (x.d, x.m), (x.d, (x.m + interval '1 month')::date)) AS k(device_id, month)
$$;

CREATE FUNCTION month_end_pair_refresh(devices integer[], months date[]) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO month_end_pair (device_id, month)
  SELECT k.device_id, k.month FROM month_end_pair_keys(devices, months) k ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  PERFORM 1 FROM month_end_pair p
    JOIN month_end_pair_keys(devices, months) k ON p.device_id = k.device_id AND p.month = k.month
   ORDER BY p.device_id, p.month
     FOR UPDATE OF p;
  UPDATE month_end_pair p
     SET start_value = s.value, start_source = s.source, end_value = e.value, end_source = e.source
    FROM month_end_pair_keys(devices, months) k
    LEFT JOIN month_end s ON s.device_id = k.device_id AND s.month = (k.month - interval '1 month')::date
    LEFT JOIN month_end e ON e.device_id = k.device_id AND e.month = k.month
   WHERE p.device_id = k.device_id AND p.month = k.month;
  DELETE FROM month_end_pair p
   USING month_end_pair_keys(devices, months) k
   WHERE p.device_id = k.device_id AND p.month = k.month AND p.start_value IS NULL AND p.end_value IS NULL;
END $$;

CREATE FUNCTION month_end_pair_keep() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  d integer[];
  m date[];
BEGIN
  IF TG_OP = 'INSERT' THEN
    SELECT array_agg(device_id), array_agg(month) INTO d, m FROM new_rows;
  ELSIF TG_OP = 'DELETE' THEN
    SELECT array_agg(device_id), array_agg(month) INTO d, m FROM old_rows;
  ELSE
    -- Only a changed value, source or key moves a pair (a month end written again as it was does not).
    SELECT array_agg(x.device_id), array_agg(x.month) INTO d, m FROM (
      SELECT c.device_id, c.month FROM (
        SELECT device_id, month, value::text, source FROM new_rows
        EXCEPT SELECT device_id, month, value::text, source FROM old_rows) c
      UNION
      (SELECT device_id, month FROM old_rows
       EXCEPT SELECT device_id, month FROM new_rows)) x;
  END IF;
  IF d IS NOT NULL THEN
    PERFORM month_end_pair_refresh(d, m);
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER month_end_pair_insert AFTER INSERT ON month_end
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION month_end_pair_keep();
CREATE TRIGGER month_end_pair_update AFTER UPDATE ON month_end
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION month_end_pair_keep();
CREATE TRIGGER month_end_pair_delete AFTER DELETE ON month_end
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION month_end_pair_keep();

CREATE FUNCTION month_end_pair_clear() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM month_end_pair;
  RETURN NULL;
END $$;
CREATE TRIGGER month_end_pair_truncate AFTER TRUNCATE ON month_end
  FOR EACH STATEMENT EXECUTE FUNCTION month_end_pair_clear();

-- The pairs of the month ends already there.
INSERT INTO month_end_pair (device_id, month, start_value, start_source, end_value, end_source)
SELECT coalesce(e.device_id, s.device_id), coalesce(e.month, (s.month + interval '1 month')::date),
       s.value, s.source, e.value, e.source
  FROM month_end e
  FULL JOIN month_end s ON s.device_id = e.device_id AND s.month = (e.month - interval '1 month')::date;
ANALYZE month_end_pair;

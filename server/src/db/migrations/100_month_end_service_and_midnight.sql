-- Month-end values follow the device's service period and the midnight rule
-- (docs/data-quality.md, "Service period" and "Month ends"; docs/domain.md §5).
--
-- 1. No month end outside a device's service: a month end (00:00 of the 1st of
--    the next month, in the provider's zone) belongs to a device only if it was
--    installed before it and not removed before it. Any change of installation
--    or removal time (a backdated removal in the device forms, the register
--    import, a correction) deletes the month ends it puts outside the service,
--    manual ones included, and queues the months it touches for the month-end
--    work: from the month before the earlier of the old and new time to the
--    month of the later (the values around a moved bound use other readings).
-- 2. The midnight rule: a reading stamped exactly at a month's first instant is
--    the month that ended. Month ends computed before this rule, of a device
--    with a reading at exactly that instant, are queued to be computed again.

CREATE FUNCTION device_service_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM month_end me
   WHERE me.device_id = NEW.id
     AND NOT (coalesce(NEW.installed_at, '-infinity') < (me.month + interval '1 month')::timestamp::timestamptz
              AND coalesce(NEW.removed_at, 'infinity') >= (me.month + interval '1 month')::timestamp::timestamptz);
  INSERT INTO dq_pending (device_id, month)
  SELECT DISTINCT NEW.id, g::date
    FROM (VALUES (OLD.installed_at, NEW.installed_at), (OLD.removed_at, NEW.removed_at)) AS v (a, b)
   CROSS JOIN LATERAL generate_series(
           date_trunc('month', least(coalesce(v.a, v.b), coalesce(v.b, v.a))) - interval '1 month',
           date_trunc('month', greatest(coalesce(v.a, v.b), coalesce(v.b, v.a))),
           interval '1 month') AS g
   WHERE v.a IS DISTINCT FROM v.b
   ORDER BY 1, 2
  ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER device_service_changed
  AFTER UPDATE OF installed_at, removed_at ON device
  FOR EACH ROW
  WHEN (OLD.installed_at IS DISTINCT FROM NEW.installed_at OR OLD.removed_at IS DISTINCT FROM NEW.removed_at)
  EXECUTE FUNCTION device_service_changed();

-- What earlier changes left behind.
DELETE FROM month_end me
 USING device d
 WHERE d.id = me.device_id
   AND NOT (coalesce(d.installed_at, '-infinity') < (me.month + interval '1 month')::timestamp::timestamptz
            AND coalesce(d.removed_at, 'infinity') >= (me.month + interval '1 month')::timestamp::timestamptz);

INSERT INTO dq_pending (device_id, month)
SELECT me.device_id, me.month FROM month_end me
 WHERE me.source <> 'manual'
   AND EXISTS (SELECT FROM reading r
                WHERE r.device_id = me.device_id AND r.ts = (me.month + interval '1 month')::timestamp::timestamptz)
 ORDER BY 1, 2
ON CONFLICT DO NOTHING;

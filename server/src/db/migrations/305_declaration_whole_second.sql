-- A declaration's time is the time of the reading it becomes, to the second (docs/declared-readings.md,
-- "What a declaration becomes"). Declarations kept the request's fraction of a second while their
-- readings were stored to the second, so a declaration never found its reading by time: the reading
-- of one that stopped counting (rejected, or another one counting) stayed, and this month's own
-- declared readings were taken for the previous value a correction is checked against.
UPDATE declaration SET declared_at = date_trunc('second', declared_at)
 WHERE declared_at <> date_trunc('second', declared_at);
ALTER TABLE declaration ALTER COLUMN declared_at SET DEFAULT date_trunc('second', now());
ALTER TABLE declaration ADD CONSTRAINT declaration_whole_second
  CHECK (declared_at = date_trunc('second', declared_at));

-- The readings those declarations left go (a reading at a declaration's time with its value, no
-- declaration that counts at that time), and their months are computed again (a reading at a month's
-- first instant is also the month before's end: the midnight rule, docs/data-quality.md).
WITH counting AS (
  SELECT DISTINCT ON (device_id, month) device_id, declared_at FROM declaration
   WHERE status <> 'rejected'
   ORDER BY device_id, month, declared_at::date DESC, value DESC, declared_at DESC, id DESC
), gone AS (
  DELETE FROM reading r USING declaration x
   WHERE r.device_id = x.device_id AND r.ts = x.declared_at AND r.value = x.value
     AND NOT EXISTS (SELECT FROM counting c WHERE c.device_id = x.device_id AND c.declared_at = x.declared_at)
  RETURNING r.device_id, r.ts
)
INSERT INTO dq_pending (device_id, month)
SELECT DISTINCT device_id, m::date FROM gone,
       LATERAL (VALUES (date_trunc('month', ts)), (date_trunc('month', ts - interval '1 microsecond'))) AS x(m)
ON CONFLICT DO NOTHING;

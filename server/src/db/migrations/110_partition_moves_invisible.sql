-- Partition maintenance invisible to readers and writers (docs/scaling.md, "Month partitions").
-- Creating a month's partition is serialised by SHARE UPDATE EXCLUSIVE on the parent (it
-- conflicts with itself, not with reads or writes), so two writers creating the same month
-- never collide. When rows of that month wait in the default partition (a stray: an import
-- of old readings written past the writers' own check, a restore), the move takes ACCESS
-- EXCLUSIVE on the parent first: every reader and writer of the table waits for the move's
-- commit and then sees the month whole, in its new partition, never half moved.
CREATE OR REPLACE FUNCTION month_partition_create(parent text, month date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  m        date := date_trunc('month', month)::date;
  name     text := parent || '_p' || to_char(m, 'YYYYMM');
  lo       timestamptz := (m::timestamp AT TIME ZONE 'UTC');
  hi       timestamptz := ((m + interval '1 month')::timestamp AT TIME ZONE 'UTC');
  waiting  boolean;
BEGIN
  IF to_regclass(name) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('LOCK TABLE %I IN SHARE UPDATE EXCLUSIVE MODE', parent);
  IF to_regclass(name) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I WHERE ts >= $1 AND ts < $2)', parent || '_default')
    INTO waiting USING lo, hi;
  IF waiting THEN
    EXECUTE format('LOCK TABLE %I IN ACCESS EXCLUSIVE MODE', parent);
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name, parent);
  IF waiting THEN
    EXECUTE format('WITH gone AS (DELETE FROM %I WHERE ts >= $1 AND ts < $2 RETURNING *) INSERT INTO %I SELECT * FROM gone',
                   parent || '_default', name) USING lo, hi;
  END IF;
  -- The bound as a CHECK first: ATTACH then needs no scan of its own.
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (ts >= %L AND ts < %L)', name, name || '_bound', lo, hi);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, name, lo, hi);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', name, name || '_bound');
  RETURN true;
END $$;

-- The months (first days, UTC) among `times` that lack the partition of `reading` or of
-- `telegram`: what a writer creates before it writes (services/partitions/partitions.ts).
CREATE OR REPLACE FUNCTION month_partitions_missing(times timestamptz[]) RETURNS date[]
LANGUAGE sql STABLE AS $$
  SELECT coalesce(array_agg(m ORDER BY m), '{}')
    FROM (SELECT DISTINCT date_trunc('month', t AT TIME ZONE 'UTC')::date AS m FROM unnest(times) t) months
   WHERE to_regclass('reading_p' || to_char(m, 'YYYYMM')) IS NULL
      OR to_regclass('telegram_p' || to_char(m, 'YYYYMM')) IS NULL
$$;

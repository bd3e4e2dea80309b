-- `reading` and `telegram` partitioned by month of `ts` (declarative RANGE
-- partitioning; docs/scaling.md). Both grow by one row per reading, are read
-- per device and time range, and are archived by month, so both are split the
-- same way. Months are UTC calendar months: the same bounds whatever the
-- session's time zone. A default partition takes rows of months that have no
-- partition yet (a meter clock far off, an import of old readings), so no
-- writer ever fails; the scheduled job `partitions` creates the coming months
-- ahead of time and moves any month found in the default partition into a
-- partition of its own (reading_partitions_ensure below). Same functions on
-- PGlite and on a PostgreSQL server.

-- The partition of one month for one of the two tables, created if missing.
-- Rows of that month waiting in the default partition move into it first
-- (a new partition cannot be attached while the default one holds its rows).
CREATE OR REPLACE FUNCTION month_partition_create(parent text, month date) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  m      date := date_trunc('month', month)::date;
  name   text := parent || '_p' || to_char(m, 'YYYYMM');
  lo     timestamptz := (m::timestamp AT TIME ZONE 'UTC');
  hi     timestamptz := ((m + interval '1 month')::timestamp AT TIME ZONE 'UTC');
  moved  bigint;
BEGIN
  IF to_regclass(name) IS NOT NULL THEN
    RETURN false;
  END IF;
  EXECUTE format('CREATE TABLE %I (LIKE %I INCLUDING DEFAULTS INCLUDING CONSTRAINTS)', name, parent);
  EXECUTE format('WITH gone AS (DELETE FROM %I WHERE ts >= $1 AND ts < $2 RETURNING *) INSERT INTO %I SELECT * FROM gone',
                 parent || '_default', name) USING lo, hi;
  GET DIAGNOSTICS moved = ROW_COUNT;
  -- The bound as a CHECK first: ATTACH then needs no scan of its own.
  EXECUTE format('ALTER TABLE %I ADD CONSTRAINT %I CHECK (ts >= %L AND ts < %L)', name, name || '_bound', lo, hi);
  EXECUTE format('ALTER TABLE %I ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', parent, name, lo, hi);
  EXECUTE format('ALTER TABLE %I DROP CONSTRAINT %I', name, name || '_bound');
  RETURN true;
END $$;

-- The partitions of both tables for the month of `at_time` and the next `ahead` months, and
-- for every month found in the default partitions; returns how many were created.
CREATE OR REPLACE FUNCTION reading_partitions_ensure(at_time timestamptz, ahead integer) RETURNS integer
LANGUAGE plpgsql AS $$
DECLARE
  m        date;
  created  integer := 0;
  t        text;
BEGIN
  FOREACH t IN ARRAY ARRAY['reading', 'telegram'] LOOP
    FOR m IN
      SELECT date_trunc('month', (at_time AT TIME ZONE 'UTC') + make_interval(months => k))::date
        FROM generate_series(0, ahead) k
      UNION
      SELECT DISTINCT date_trunc('month', ts AT TIME ZONE 'UTC')::date FROM reading_default WHERE t = 'reading'
      UNION
      SELECT DISTINCT date_trunc('month', ts AT TIME ZONE 'UTC')::date FROM telegram_default WHERE t = 'telegram'
      ORDER BY 1
    LOOP
      IF month_partition_create(t, m) THEN
        created := created + 1;
      END IF;
    END LOOP;
  END LOOP;
  RETURN created;
END $$;

-- Detaches the month partitions of both tables that end on or before `before`
-- (the first of a month): they stay as plain tables (reading_pYYYYMM,
-- telegram_pYYYYMM) to dump and drop (docs/operations.md). Returns their names.
CREATE OR REPLACE FUNCTION reading_partitions_detach(before date) RETURNS SETOF text
LANGUAGE plpgsql AS $$
DECLARE
  p record;
BEGIN
  FOR p IN
    SELECT c.relname::text AS name, i.inhparent::regclass::text AS parent
      FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
     WHERE i.inhparent IN ('reading'::regclass, 'telegram'::regclass)
       AND c.relname ~ '_p[0-9]{6}$'
       AND to_date(right(c.relname, 6), 'YYYYMM') < date_trunc('month', before)::date
     ORDER BY 1
  LOOP
    EXECUTE format('ALTER TABLE %I DETACH PARTITION %I', p.parent, p.name);
    RETURN NEXT p.name;
  END LOOP;
END $$;

-- The tables move: old ones renamed, partitioned ones created with the same
-- columns, keys and checks, the rows copied month by month, the old ones dropped.
ALTER TABLE reading RENAME TO reading_unpartitioned;
ALTER TABLE reading_unpartitioned RENAME CONSTRAINT reading_pkey TO reading_unpartitioned_pkey;
ALTER TABLE reading_unpartitioned RENAME CONSTRAINT reading_value_finite TO reading_unpartitioned_value_finite;
ALTER TABLE telegram RENAME TO telegram_unpartitioned;
ALTER TABLE telegram_unpartitioned RENAME CONSTRAINT telegram_pkey TO telegram_unpartitioned_pkey;
ALTER TABLE telegram_unpartitioned RENAME CONSTRAINT telegram_set_value_finite TO telegram_unpartitioned_set_value_finite;

CREATE TABLE reading (
  device_id  integer NOT NULL,
  ts         timestamptz NOT NULL,
  meter_ts   timestamptz,
  value      numeric NOT NULL,
  CONSTRAINT reading_pkey PRIMARY KEY (device_id, ts),
  CONSTRAINT reading_value_finite CHECK (value < 'Infinity' AND value > '-Infinity')
) PARTITION BY RANGE (ts);
CREATE TABLE reading_default PARTITION OF reading DEFAULT;

CREATE TABLE telegram (
  device_id  integer NOT NULL,
  ts         timestamptz NOT NULL,
  flags      text[] NOT NULL DEFAULT '{}',
  set_date   date,
  set_value  numeric,
  raw        json NOT NULL,
  CONSTRAINT telegram_pkey PRIMARY KEY (device_id, ts),
  CONSTRAINT telegram_set_value_finite CHECK (set_value < 'Infinity' AND set_value > '-Infinity')
) PARTITION BY RANGE (ts);
CREATE TABLE telegram_default PARTITION OF telegram DEFAULT;

-- Every month that holds rows, and the coming ones, get their partition before the copy.
DO $$
DECLARE
  m date;
BEGIN
  FOR m IN
    SELECT DISTINCT date_trunc('month', ts AT TIME ZONE 'UTC')::date FROM reading_unpartitioned
    UNION SELECT DISTINCT date_trunc('month', ts AT TIME ZONE 'UTC')::date FROM telegram_unpartitioned
  LOOP
    PERFORM month_partition_create('reading', m);
    PERFORM month_partition_create('telegram', m);
  END LOOP;
  PERFORM reading_partitions_ensure(now(), 3);
END $$;

INSERT INTO reading SELECT device_id, ts, meter_ts, value FROM reading_unpartitioned;
INSERT INTO telegram SELECT device_id, ts, flags, set_date, set_value, raw FROM telegram_unpartitioned;
DROP TABLE reading_unpartitioned;
DROP TABLE telegram_unpartitioned;
ANALYZE reading;
ANALYZE telegram;

-- The scheduled job that keeps partitions ahead (services/data-quality/scheduler.ts).
INSERT INTO job (name) VALUES ('partitions') ON CONFLICT (name) DO NOTHING;

-- The master-data version (migration 040) is compacted by the writers, not by
-- the readers: GetDevicesData only reads (a standby can answer it, and a read
-- never waits for or blocks a write), and master_change stays a few rows long.
--
-- A transaction that changes master data, at its first such statement, merges
-- the committed rows no other transaction holds (FOR UPDATE SKIP LOCKED: it
-- never waits) into the one row it adds for itself: it removes rows of sum s
-- and adds s + 1, so once it commits the sum has grown by exactly one, as
-- before; rolled back, nothing changed. Two writers at once each merge what
-- the other does not hold, and neither waits for the other. Under REPEATABLE
-- READ a row deleted by a transaction committed after the snapshot cannot be
-- locked: then the transaction only adds its row, as before.
CREATE OR REPLACE FUNCTION note_master_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The setting is local to the transaction (and undone with a rolled-back savepoint, as are the rows).
  IF current_setting('rodmenys.master_changed', true) IS DISTINCT FROM 'yes' THEN
    PERFORM set_config('rodmenys.master_changed', 'yes', true);
    BEGIN
      WITH gone AS (
        DELETE FROM master_change
         WHERE ctid = ANY (ARRAY(SELECT ctid FROM master_change FOR UPDATE SKIP LOCKED))
        RETURNING n)
      INSERT INTO master_change (n) SELECT coalesce(sum(n), 0) + 1 FROM gone;
    EXCEPTION WHEN serialization_failure THEN
      INSERT INTO master_change DEFAULT VALUES;
    END;
  END IF;
  RETURN NULL;
END
$$;

-- The readers' compaction (run by GetDevicesData's plan beyond 100 rows) is gone.
DROP FUNCTION compact_master_change();

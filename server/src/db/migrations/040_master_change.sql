-- A version of the master data that GetDevicesData's text of each device is
-- kept under (server/src/services/devices/device-text-cache.ts): the device,
-- its type, its place (location), the building's object and the client.
--
-- Every transaction that changes one of those tables adds one row here (a
-- statement-level trigger, once per transaction). The version is sum(n): rows
-- are only ever added, or merged by `compact_master_change()` into one row of
-- the same sum, so the visible sum grows with every committed change and two
-- snapshots that see the same sum see the same master data. No row is shared
-- between writers, so no master-data transaction ever waits for another here.
CREATE TABLE master_change (n bigint NOT NULL DEFAULT 1 CHECK (n > 0));

CREATE FUNCTION note_master_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  -- The setting is local to the transaction (and undone with a rolled-back savepoint, as is the row).
  IF current_setting('rodmenys.master_changed', true) IS DISTINCT FROM 'yes' THEN
    INSERT INTO master_change DEFAULT VALUES;
    PERFORM set_config('rodmenys.master_changed', 'yes', true);
  END IF;
  RETURN NULL;
END
$$;

CREATE TRIGGER device_master_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON device
  FOR EACH STATEMENT EXECUTE FUNCTION note_master_change();
CREATE TRIGGER device_type_master_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON device_type
  FOR EACH STATEMENT EXECUTE FUNCTION note_master_change();
CREATE TRIGGER location_master_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON location
  FOR EACH STATEMENT EXECUTE FUNCTION note_master_change();
CREATE TRIGGER object_master_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON object
  FOR EACH STATEMENT EXECUTE FUNCTION note_master_change();
CREATE TRIGGER client_master_change AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON client
  FOR EACH STATEMENT EXECUTE FUNCTION note_master_change();

-- Merges the rows into one of the same sum (the version does not change). Run
-- in a short transaction of its own; two at once are harmless: the second
-- deletes only what the first left and re-adds exactly that.
CREATE FUNCTION compact_master_change() RETURNS void LANGUAGE sql AS $$
  WITH gone AS (DELETE FROM master_change RETURNING n)
  INSERT INTO master_change (n) SELECT sum(n) FROM gone HAVING count(*) > 0
$$;

INSERT INTO master_change DEFAULT VALUES;

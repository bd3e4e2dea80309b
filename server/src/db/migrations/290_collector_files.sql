-- A collector that writes files (docs/ingest.md, "CSV files") hears its meters as much as one that
-- sends telegrams: the newest reading a file brought for the device, so that "how a device is read
-- now" (docs/device-lifetime.md) counts it as remote. Readings imported before this column came
-- count from the next file on.
ALTER TABLE device_status ADD COLUMN file_ts timestamptz;

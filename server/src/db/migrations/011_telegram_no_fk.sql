-- The telegram store is an archive beside `reading`: the ingest finds the device
-- before it stores anything, and the per-row foreign key check cost as much as
-- the insert itself (bench/src/ingest.ts). `reading` keeps its foreign key.
ALTER TABLE telegram DROP CONSTRAINT telegram_device_id_fkey;

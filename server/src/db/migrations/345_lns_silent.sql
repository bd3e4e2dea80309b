-- A silent LoRaWAN network-server connection (docs/lorawan.md, "A silent connection"): its
-- LNS_SILENT anomaly names the connection, as a silent collector's names the collector, so two
-- silent connections serving one building are two anomalies. The anomaly is about the
-- connection alone: were the connection's row ever removed (connections are deleted by marking
-- them, which resolves the anomaly), its anomalies would go with it.
ALTER TABLE anomaly ADD COLUMN lns_connection_id integer REFERENCES lns_connection (id) ON DELETE CASCADE;
CREATE INDEX anomaly_lns_connection ON anomaly (lns_connection_id) WHERE lns_connection_id IS NOT NULL;

-- Every unresolved row has lns_connection_id null so far: the wider key keeps them unique.
DROP INDEX anomaly_unresolved;
CREATE UNIQUE INDEX anomaly_unresolved
  ON anomaly (rule, building_id, coalesce(device_id, 0), month, coalesce(collector_id, 0), coalesce(lns_connection_id, 0))
  WHERE state <> 'resolved';

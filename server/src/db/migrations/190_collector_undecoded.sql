-- A meter heard by a collector whose telegrams gave no value for this many hours opens
-- METER_UNDECODED (docs/collectors.md, "Heard but not decoded").
INSERT INTO dq_setting (key, value) VALUES ('collector.undecodedHours', '24') ON CONFLICT DO NOTHING;

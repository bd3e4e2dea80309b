-- The largest plausible rise per day of a collector's value, per device type (1 allocator units,
-- 2 and 11 heat meters kWh, 3 and 4 water m³): a value rising faster is held back as suspect
-- (docs/collectors.md, "A wrong key"). Generous: a real meter never comes near.
INSERT INTO dq_setting (key, value) VALUES
  ('suspect.maxPerDay', '{"1": 1000, "2": 2000, "3": 20, "4": 20, "11": 200000}')
ON CONFLICT DO NOTHING;

-- A stored number can never make an answer invalid JSON (docs/input-limits.md):
-- numeric accepts 'Infinity', '-Infinity' and 'NaN' (PostgreSQL 14+), which
-- no reading is, and which a JSON answer cannot carry. The API refuses them at input;
-- these constraints refuse them at storage, whatever writes the row. NaN sorts above
-- every number in PostgreSQL, so `< 'Infinity'` refuses it too.

-- Non-finite values stored before: they never were readings.
WITH gone AS (
  DELETE FROM reading WHERE NOT (value < 'Infinity' AND value > '-Infinity') RETURNING device_id
)
SELECT keep_last_seen(ids) FROM (SELECT array_agg(DISTINCT device_id) AS ids FROM gone) g WHERE ids IS NOT NULL;
UPDATE telegram SET set_value = NULL WHERE NOT (set_value < 'Infinity' AND set_value > '-Infinity');
UPDATE device SET rating_factor = NULL WHERE NOT (rating_factor < 'Infinity' AND rating_factor > '-Infinity');
UPDATE device_status SET set_value = NULL WHERE NOT (set_value < 'Infinity' AND set_value > '-Infinity');

ALTER TABLE reading ADD CONSTRAINT reading_value_finite CHECK (value < 'Infinity' AND value > '-Infinity');
ALTER TABLE telegram ADD CONSTRAINT telegram_set_value_finite
  CHECK (set_value < 'Infinity' AND set_value > '-Infinity');
ALTER TABLE device_status ADD CONSTRAINT device_status_set_value_finite
  CHECK (set_value < 'Infinity' AND set_value > '-Infinity');
ALTER TABLE device ADD CONSTRAINT device_rating_factor_finite
  CHECK (rating_factor < 'Infinity' AND rating_factor > '-Infinity');

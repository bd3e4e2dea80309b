-- Data quality (docs/data-quality.md): month-end values with their source, the
-- values meters keep in their own memory, the queue of devices and months to
-- look at again, the settings of the rules, and the flat area estimates use.
-- Every session runs in the provider's zone (db/open.ts), so a `date` month and
-- `timestamp` casts below are taken there, DST included.

-- The floor area of a flat (level 7), for estimates per m².
ALTER TABLE location ADD COLUMN area_m2 numeric CHECK (area_m2 > 0);

-- Values the meter itself stored for a day: the set-day (billing date) value
-- and monthly history values the telegrams carry. `day` is the meter's date:
-- a value for 2026-01-31 or for 2026-02-01 (00:00) is the value at the end of
-- January. The first value received for a day is kept.
CREATE TABLE device_memory (
  device_id  integer NOT NULL,
  day        date NOT NULL,
  value      numeric NOT NULL,
  -- The telegram it came from.
  ts         timestamptz NOT NULL,
  PRIMARY KEY (device_id, day)
);

-- One value per device and month end (the first instant of the next month in
-- the provider's zone: "at or before the month end" is "before that instant").
-- `month` is the month's first day. Sources in order of preference: measured,
-- memory, interpolated, estimated; manual is an operator's value, never replaced
-- automatically. Raw readings are never changed: this table is derived from them.
CREATE TABLE month_end (
  device_id        integer NOT NULL REFERENCES device (id),
  month            date NOT NULL CHECK (extract(day FROM month) = 1),
  value            numeric NOT NULL,
  source           text NOT NULL CHECK (source IN ('measured', 'memory', 'interpolated', 'estimated', 'manual')),
  -- measured: the reading used; interpolated: the readings before and after.
  reading_ts       timestamptz,
  next_ts          timestamptz,
  -- estimated: how (last_year_trend, building_average, building_average_m2).
  method           text,
  -- manual: why, and who.
  reason           text,
  set_by           integer REFERENCES app_user (id) ON DELETE SET NULL,
  computed_at      timestamptz NOT NULL DEFAULT now(),
  -- The value and source this one replaced (a late reading replacing an estimate), and when.
  previous_value   numeric,
  previous_source  text,
  changed_at       timestamptz,
  PRIMARY KEY (device_id, month)
);
CREATE INDEX month_end_month ON month_end (month, source);

-- Devices and months to compute again: every path that stores readings or
-- device memory adds (device, month of the reading) in the same statement; the
-- scheduled work (services/data-quality/run-jobs.ts) empties it.
CREATE TABLE dq_pending (
  device_id  integer NOT NULL,
  month      date NOT NULL,
  PRIMARY KEY (device_id, month)
);

-- Heating degree-days per day (optional data): allocators are interpolated in
-- proportion to them when every day of the gap is known.
CREATE TABLE heating_degree_day (
  day    date PRIMARY KEY,
  value  numeric NOT NULL CHECK (value >= 0)
);

-- The parameters of month-end values, rules and schedules, one row each;
-- group 1 edits them (audited). Values are JSON.
CREATE TABLE dq_setting (
  key         text PRIMARY KEY,
  value       jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now(),
  updated_by  integer REFERENCES app_user (id) ON DELETE SET NULL
);
INSERT INTO dq_setting (key, value) VALUES
  ('monthEnd.toleranceDays', '2'),
  ('monthEnd.keepMonths', '24'),
  ('monthEnd.estimatedShareWarn', '0.25'),
  ('heatingSeasonMonths', '[1, 2, 3, 4, 5, 10, 11, 12]'),
  ('silent.days', '{"1": 7, "2": 3, "3": 3, "4": 3, "11": 2}'),
  ('zero.days', '{"1": 14, "2": 14, "3": 30, "4": 30}'),
  ('negative.resetFraction', '0.1'),
  ('window.days', '14'),
  ('highLow.high', '2'),
  ('highLow.low', '0.2'),
  ('sentinel.values', '[-2147483648, 2147483647, 4294967295, 99999999, 9999999.9, 999999.99, 99999.999]'),
  ('balance.tolerance', '0.2'),
  ('schedule.validateMinutes', '60'),
  ('schedule.digestHour', '7');

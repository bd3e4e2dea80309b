-- Devices over their lifetime (docs/device-lifetime.md): when a device was last verified (or
-- made), how it is read, the verification and battery due dates computed from settings, and the
-- remote-reading register's per-building exception note.

-- The day of the device's last metrological verification, or of its manufacture for a new one;
-- null = its installation day counts (the register and the forms may give it).
ALTER TABLE device ADD COLUMN verified_on date;
-- How the device is read when no collector has heard it lately: 'remote' (marked so: read by
-- another system), 'walkby' (a walk-by radio reading) or 'manual' (read or declared by hand);
-- null = not said (manual). A device a collector heard in the last `lifetime.remoteDays` is remote.
ALTER TABLE device ADD COLUMN read_method text CHECK (read_method IN ('remote', 'walkby', 'manual'));

INSERT INTO dq_setting (key, value) VALUES
  -- Years between verifications per device type id, of devices on flats and on buildings
  -- (Lithuania: flat water meters 6, building-inlet water meters 2; heat meters: the operator's
  -- metrology rules, 5 here). A type without a number is not verified (allocators).
  ('lifetime.verificationYears.flat', '{"2": 5, "3": 6, "4": 6}'),
  ('lifetime.verificationYears.building', '{"3": 2, "4": 2, "11": 5}'),
  -- true: a verification runs out at the end of the year its interval ends in.
  ('lifetime.endOfYear', 'false'),
  -- An allocator's battery life in years per model ("default" for the rest).
  ('lifetime.batteryYears', '{"default": 10}'),
  -- A device a collector heard within this many days is read remotely.
  ('lifetime.remoteDays', '30')
ON CONFLICT (key) DO NOTHING;

-- The verification due date of a device (type, level of its location, the day its interval starts
-- from): that day plus the interval of lifetime.verificationYears, to the end of that year when
-- lifetime.endOfYear says so (the interval by level: lifetime.verificationYears.flat or
-- .building); null when the type has no interval at that level.
CREATE FUNCTION verification_due(type_id integer, level integer, from_day date) RETURNS date
STABLE LANGUAGE sql AS $$
  SELECT CASE
           WHEN s.years IS NULL OR from_day IS NULL THEN NULL
           WHEN s.end_of_year THEN make_date(extract(year FROM from_day + make_interval(years => s.years))::int, 12, 31)
           ELSE (from_day + make_interval(years => s.years))::date
         END
    FROM (SELECT ((SELECT value FROM dq_setting
                    WHERE key = CASE WHEN level = 6 THEN 'lifetime.verificationYears.building'
                                     ELSE 'lifetime.verificationYears.flat' END) ->> type_id::text)::int AS years,
                 coalesce((SELECT value FROM dq_setting WHERE key = 'lifetime.endOfYear') = 'true'::jsonb, false)
                   AS end_of_year) s
$$;

-- An allocator's battery end: its installation day plus the battery life of its model
-- (lifetime.batteryYears, else its "default"); null for other types.
CREATE FUNCTION battery_end(type_id integer, model text, installed_day date) RETURNS date
STABLE LANGUAGE sql AS $$
  SELECT CASE WHEN type_id <> 1 OR installed_day IS NULL OR y IS NULL THEN NULL
              ELSE (installed_day + make_interval(years => y))::date END
    FROM (SELECT coalesce((b.value ->> model)::int, (b.value ->> 'default')::int) AS y
            FROM (SELECT value FROM dq_setting WHERE key = 'lifetime.batteryYears') b) s
$$;

-- How a device is read now: remote when a collector heard it within lifetime.remoteDays (or it is
-- marked remote), else as marked, else manual.
CREATE FUNCTION read_method_now(marked text, telegram_ts timestamptz) RETURNS text
STABLE LANGUAGE sql AS $$
  SELECT CASE
           WHEN marked = 'remote' THEN 'remote'
           WHEN telegram_ts IS NOT NULL AND telegram_ts >= now() - make_interval(days =>
             coalesce((SELECT (value #>> '{}')::int FROM dq_setting WHERE key = 'lifetime.remoteDays'), 30))
             THEN 'remote'
           ELSE coalesce(marked, 'manual')
         END
$$;

-- The remote-reading register's exception note per building (EU 2023/1791 Art. 16: not
-- cost-efficient to make remote), with who wrote it when; every change is audited.
CREATE TABLE remote_exception (
  building_id  integer PRIMARY KEY REFERENCES location (id),
  note         text NOT NULL,
  noted_at     timestamptz NOT NULL DEFAULT now(),
  noted_by     integer REFERENCES app_user (id) ON DELETE SET NULL
);

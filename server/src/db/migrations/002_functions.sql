-- A timestamp as the API shows it: ISO 8601 in the session's time zone (the
-- provider's) with its offset, e.g. 2026-03-29T04:00:00+03:00. Inlined by the planner.
CREATE FUNCTION iso(timestamptz) RETURNS text
  LANGUAGE sql STABLE PARALLEL SAFE
  AS $$ SELECT to_char($1, 'YYYY-MM-DD"T"HH24:MI:SSTZH:TZM') $$;

-- A location's address as one line: "Vilniaus m. sav., Vilnius, Gedimino pr. 12-5".
CREATE FUNCTION address_label(l location) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT CASE WHEN l.level <= 3
                    THEN concat_ws(', ', l.country, l.county, l.region)
                    ELSE concat_ws(', ', l.region, l.city,
                           nullif(concat_ws('-', concat_ws(' ', l.street, l.building), l.flat), ''))
               END $$;

-- "Replaces": the device whose replaced_by points here.
CREATE INDEX device_replaced_by ON device (replaced_by) WHERE replaced_by IS NOT NULL;

-- Natural order of building numbers: 2 < 10 < 10A.
CREATE FUNCTION building_number(text) RETURNS integer
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT nullif(substring($1 FROM '^[0-9]{1,9}'), '')::integer $$;

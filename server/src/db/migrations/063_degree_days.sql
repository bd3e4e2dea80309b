-- Heating degree-days per city (the level-4 location, path[4] of a flat) and
-- month, replacing the per-day table: suppliers publish monthly figures per
-- city. Interpolation of allocators spreads each month's value evenly over its
-- days (docs/data-quality.md); the monthly statements read it as well.
DROP TABLE heating_degree_day;
CREATE TABLE degree_days (
  city_id  integer NOT NULL REFERENCES location (id) ON DELETE CASCADE,
  month    date NOT NULL CHECK (month = date_trunc('month', month)::date),
  value    numeric NOT NULL CHECK (value >= 0),
  PRIMARY KEY (city_id, month)
);

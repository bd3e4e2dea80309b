-- A building's heat method (docs/heat-method.md): the parameters of the split of its input meter's
-- energy into hot water, circulation, common areas and space heating, valid from a month on until
-- the next version. hot_water_heat null: the plain rule (plainQrad) from that month on. The flats'
-- position factors and circulation classes belong to the version ([{FlatId, PositionFactor,
-- CirculationClass}]), so a month's parameters are read, and frozen with a publication, as one.
CREATE TABLE building_heat_method (
  building_id int NOT NULL REFERENCES location (id) ON DELETE CASCADE,
  valid_from date NOT NULL CHECK (extract(day FROM valid_from) = 1),
  hot_water_heat text CHECK (hot_water_heat IN ('norm', 'meter', 'formulaDE')),
  kwh_per_m3 numeric NOT NULL CHECK (kwh_per_m3 >= 0),
  circulation_norm numeric NOT NULL CHECK (circulation_norm >= 0),
  hot_water_temperature numeric NOT NULL,
  district_heat boolean NOT NULL,
  seasons jsonb NOT NULL,
  common_share numeric NOT NULL CHECK (common_share BETWEEN 0 AND 0.5),
  base_share numeric NOT NULL CHECK (base_share BETWEEN 0 AND 0.5),
  minimum_share numeric NOT NULL CHECK (minimum_share BETWEEN 0 AND 1),
  flats jsonb NOT NULL,
  changed_by int REFERENCES app_user (id) ON DELETE SET NULL,
  changed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (building_id, valid_from)
);

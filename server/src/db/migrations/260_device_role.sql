-- A building-level device's role in the building's heat split (docs/heat-method.md, "Devices"):
-- 'hotWaterInput', the hot-water input meter (a hot-water meter, type 4, on a building: the
-- building's hot-water volume, m³), or 'hotWaterHeat', the hot-water heat meter (a building heat
-- meter, type 11, on the hot-water heat exchanger: the heat of the hot water and the circulation,
-- kWh). Null: the device's plain role (a type 11 without a role is the building's input meter).
ALTER TABLE device ADD COLUMN role text CHECK (
  role IS NULL
  OR (role = 'hotWaterInput' AND device_type_id = 4)
  OR (role = 'hotWaterHeat' AND device_type_id = 11)
);

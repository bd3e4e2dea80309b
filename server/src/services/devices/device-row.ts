/**
 * The SELECT list of the contract's DeviceRow over `device d JOIN location l`
 * with DEVICE_JOINS. The object is the building's (path[6]): a flat's building,
 * or the building itself for a building heat meter. LastSeen: the latest
 * telegram (device_status, which counts telegrams without a value too) or
 * reading (one backward index probe).
 */
export const DEVICE_COLUMNS = `d.id AS "DeviceId", d.device_type_id AS "DeviceTypeId", d.location_id AS "LocationId",
  l.parent_id AS "ParentLocationId", l.country AS "Country", l.county AS "County", l.region AS "Region",
  l.city AS "City", l.street AS "Street", l.building AS "Building", l.flat AS "Flat", l.flat_order AS "FlatOrder",
  o.code AS "ObjectCode", c.code AS "ClientCode", d.device_code AS "DeviceCode", d.counter_code AS "CounterCode",
  d.description AS "DeviceDescription", t.data_load_proc AS "DataLoadProc", d.rating_factor::float8 AS "RatingFactor",
  iso(d.installed_at) AS "InstalledAt", iso(d.removed_at) AS "RemovedAt", d.replaced_by AS "ReplacedBy",
  (SELECT p.id FROM device p WHERE p.replaced_by = d.id LIMIT 1) AS "Replaces",
  iso(greatest(ds.last_seen, (SELECT max(r.ts) FROM reading r WHERE r.device_id = d.id))) AS "LastSeen"`;

export const DEVICE_JOINS = `JOIN location l ON l.id = d.location_id
  JOIN device_type t ON t.id = d.device_type_id
  LEFT JOIN object o ON o.location_id = l.path[6]
  LEFT JOIN client c ON c.id = l.client_id
  LEFT JOIN device_status ds ON ds.device_id = d.id`;

/** Buildings in address order (numbers naturally: 2 < 10 < 10A), over a location alias. */
export const buildingOrder = (a: string) =>
  `${a}.country, ${a}.county, ${a}.region, ${a}.city, ${a}.street, building_number(${a}.building), ${a}.building`;

/** Address order: area names, then buildings by number, flats by their order, then the devices. */
export const DEVICE_ORDER = `${buildingOrder('l')}, l.flat_order NULLS FIRST, l.flat, d.device_type_id, d.description, d.device_code`;

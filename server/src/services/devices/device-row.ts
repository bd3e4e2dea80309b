import type { DeviceRow } from '@rodmenys/contract';
import type { JsonKind } from '../json-sql.js';

/**
 * How far back a backward probe of `reading` looks first. A btree scan reads
 * every matching entry of its leaf page before LIMIT 1 takes the first (up to a
 * few hundred for one device): a lower bound close to the start stops it after
 * a few. Only a speed-up: when the near probe finds nothing, an unbounded one
 * runs, and the answer is the same either way (docs/benchmarks.md).
 */
export const NEAR_PROBE = '6 hours';

type DeviceField = readonly [keyof DeviceRow, string, JsonKind];

/**
 * The DeviceRow fields that only the master data decide, in the contract's
 * order, over `device d` with DEVICE_JOINS: the device, its type, its place
 * (`location l`), its building's `object o` (path[6]: a flat's building, or the
 * building itself for a building heat meter) and its `client c`, the tables
 * whose changes `master_change` counts (migration 040). Everything but LastSeen,
 * which is the last field.
 */
export const DEVICE_FIXED_FIELDS: readonly DeviceField[] = [
  ['DeviceId', 'd.id', 'number'],
  ['DeviceTypeId', 'd.device_type_id', 'number'],
  ['LocationId', 'd.location_id', 'number'],
  ['ParentLocationId', 'l.parent_id', 'number'],
  ['Country', 'l.country', 'string'],
  ['County', 'l.county', 'string'],
  ['Region', 'l.region', 'string'],
  ['City', 'l.city', 'string'],
  ['Street', 'l.street', 'string'],
  ['Building', 'l.building', 'string'],
  ['Flat', 'l.flat', 'string'],
  ['FlatOrder', 'l.flat_order', 'number'],
  ['ObjectCode', 'o.code', 'string'],
  ['ClientCode', 'c.code', 'string'],
  ['DeviceCode', 'd.device_code', 'string'],
  ['CounterCode', 'd.counter_code', 'string'],
  ['DeviceDescription', 'd.description', 'string'],
  ['DataLoadProc', 't.data_load_proc', 'plain'],
  ['RatingFactor', 'd.rating_factor', 'numeric'],
  ['InstalledAt', 'iso(d.installed_at)', 'plain'],
  ['RemovedAt', 'iso(d.removed_at)', 'plain'],
  ['ReplacedBy', 'd.replaced_by', 'number'],
  ['Replaces', '(SELECT p.id FROM device p WHERE p.replaced_by = d.id LIMIT 1)', 'number'],
];

/**
 * LastSeen, over `device_status ds`: the latest telegram (counting telegrams
 * without a value) or reading, which every path that inserts either keeps in
 * device_status (migration 030).
 */
export const LAST_SEEN_FIELD: DeviceField = ['LastSeen', 'iso(ds.last_seen)', 'plain'];

/** The contract's DeviceRow as [field, SQL expression, JSON kind], over `device d` with DEVICE_JOINS. */
const DEVICE_FIELDS: readonly DeviceField[] = [...DEVICE_FIXED_FIELDS, LAST_SEEN_FIELD];

/** The SELECT list of DeviceRow (numeric values as float8, which the driver parses). */
export const DEVICE_COLUMNS = DEVICE_FIELDS.map(
  ([name, sql, kind]) => `${kind === 'numeric' ? `(${sql})::float8` : sql} AS "${name}"`,
).join(',\n  ');

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

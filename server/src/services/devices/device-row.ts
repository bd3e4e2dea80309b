import { buildingOrder } from '../sql.js';
import { DEVICE_ROW_FIELDS } from './devices-data/fields.js';

export { DEVICE_JOINS } from './devices-data/fields.js';

/**
 * The SELECT list of the contract's DeviceRow, over `device d` with DEVICE_JOINS
 * (numeric values as float8, which the driver parses): the fields of a ReadingRow
 * up to LastSeen, from the one list in devices-data/fields.ts.
 */
export const DEVICE_COLUMNS = DEVICE_ROW_FIELDS.map(
  ({ name, sql, kind }) => `${kind === 'numeric' ? `(${sql})::float8` : sql} AS "${name}"`,
).join(',\n  ');

export { buildingOrder };

/** Address order: area names, then buildings by number, flats by their order, then the devices. */
export const DEVICE_ORDER = `${buildingOrder('l')}, l.flat_order NULLS FIRST, l.flat, d.device_type_id, d.description, d.device_code`;

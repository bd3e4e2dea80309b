import { ADDRESS_COLUMNS, type AddressFilter, type DeviceRow } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';
import { inScope } from '../sql.js';
import { DEVICE_COLUMNS, DEVICE_JOINS, DEVICE_ORDER } from './device-row.js';

/** Every device in scope (the building > flat > device tree of the device data screen). */
export async function listDevicesInScope(db: Queryable, scope: number[] | null): Promise<DeviceRow[]> {
  const { rows } = await db.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM device d ${DEVICE_JOINS} WHERE ${inScope('l', '$1')} ORDER BY ${DEVICE_ORDER}`,
    [scope],
  );
  return rows;
}

/** Devices in a location's subtree; 404 when the location does not exist or is out of scope (reveals nothing). */
export async function listDevicesByLocation(
  db: Queryable,
  scope: number[] | null,
  locationId: number,
): Promise<DeviceRow[]> {
  const found = await db.query(`SELECT 1 FROM location l WHERE l.id = $1 AND ${inScope('l', '$2')}`, [
    locationId,
    scope,
  ]);
  if (!found.rowCount) throw notFound('locationNotFound');
  const { rows } = await db.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM device d ${DEVICE_JOINS}
      WHERE l.path && ARRAY[$1::int] AND ${inScope('l', '$2')}
      ORDER BY ${DEVICE_ORDER}`,
    [locationId, scope],
  );
  return rows;
}

export type { AddressFilter };

/** Devices whose address matches every given part exactly, ignoring case. */
export async function listDevicesByAddress(
  db: Queryable,
  scope: number[] | null,
  filter: AddressFilter,
): Promise<DeviceRow[]> {
  const params: unknown[] = [scope];
  const conditions = [inScope('l', '$1')];
  for (const field of ADDRESS_COLUMNS) {
    const value = filter[field]?.trim();
    if (!value) continue;
    params.push(value.toLowerCase());
    conditions.push(`lower(l.${field}) = $${params.length}`);
  }
  const { rows } = await db.query<DeviceRow>(
    `SELECT ${DEVICE_COLUMNS} FROM device d ${DEVICE_JOINS} WHERE ${conditions.join(' AND ')} ORDER BY ${DEVICE_ORDER}`,
    params,
  );
  return rows;
}

export async function listDeviceTypes(db: Queryable) {
  const { rows } = await db.query<{
    Id: number;
    DeviceTypeCode: string;
    DeviceTypeName: string;
    DeviceTypeNameEn: string;
    DeviceCategoryCode: string;
    DataLoadProc: 'allocator' | 'energy' | 'volume';
  }>(
    `SELECT id AS "Id", code AS "DeviceTypeCode", name_lt AS "DeviceTypeName", name_en AS "DeviceTypeNameEn",
            category_code AS "DeviceCategoryCode", data_load_proc AS "DataLoadProc"
       FROM device_type ORDER BY id`,
  );
  return rows;
}

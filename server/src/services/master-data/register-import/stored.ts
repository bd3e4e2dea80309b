import { ADDRESS_COLUMNS } from '@rodmenys/contract';
import type { Tx } from '../../../db/db.js';
import { keyOf, type Loc, type Row, type Stored, type StoredDetails, type StoredDevice } from './types.js';

/**
 * Reads what is stored of the records the rows name, in a few queries: the locations of
 * the file's countries, every object (one per building, both ways), the clients the file
 * names or the flats link to, and the devices by serial.
 */
export async function loadStored(tx: Tx, rows: Row[]): Promise<Stored> {
  const countries = [...new Set(rows.map((r) => r.address[0]!.toLowerCase()))];
  const locations = new Map<string, Loc>();
  const { rows: locs } = await tx.query<{
    id: number;
    level: number;
    path: number[];
    names: (string | null)[];
    flat_order: number | null;
    area_m2: number | null;
    client_id: number | null;
  }>(
    `SELECT id, level, path, ARRAY[${ADDRESS_COLUMNS.join(', ')}] AS names, flat_order,
            area_m2::float8 AS area_m2, client_id
       FROM location WHERE lower(country) = ANY($1::text[])`,
    [countries],
  );
  for (const l of locs) {
    const names = l.names.slice(0, l.level) as string[];
    locations.set(keyOf(names), {
      id: l.id,
      level: l.level,
      path: l.path,
      names,
      flatOrder: l.flat_order,
      areaM2: l.area_m2,
      clientId: l.client_id,
    });
  }
  const detailsColumns = `id, code, name, type_code AS "typeCode", type_name AS "typeName",
    category_code AS "categoryCode", category_name AS "categoryName"`;
  const { rows: objectRows } = await tx.query<StoredDetails & { locationId: number; address: string }>(
    `SELECT o.id, o.code, o.name, o.type_code AS "typeCode", o.type_name AS "typeName",
            o.category_code AS "categoryCode", o.category_name AS "categoryName", o.location_id AS "locationId",
            address_label(l) AS address
       FROM object o JOIN location l ON l.id = o.location_id`,
  );
  const objects = new Map(objectRows.map((o) => [o.code, o]));
  const objectsByLocation = new Map(objectRows.map((o) => [o.locationId, o.code]));
  const clientCodesInFile = [...new Set(rows.flatMap((r) => (r.client ? [r.client.code] : [])))];
  const { rows: clientRows } = await tx.query<StoredDetails>(
    `SELECT ${detailsColumns} FROM client WHERE code = ANY($1::text[])
     UNION SELECT ${detailsColumns} FROM client WHERE id IN (SELECT client_id FROM location WHERE lower(country) = ANY($2::text[]))`,
    [clientCodesInFile, countries],
  );
  const clients = new Map(clientRows.map((c) => [c.code, c]));
  const clientCodes = new Map(clientRows.map((c) => [c.id, c.code]));
  const { rows: deviceRows } = await tx.query<StoredDevice & { device_code: string }>(
    `SELECT d.id, d.device_code, d.device_type_id, d.location_id, d.counter_code, d.description,
            d.rating_factor::float8 AS rating_factor, d.model, d.dev_eui,
            to_char(d.installed_at, 'YYYY-MM-DD HH24:MI:SS') AS installed_at, iso(d.removed_at) AS removed_at,
            to_char(d.verified_on, 'YYYY-MM-DD') AS verified_on, d.read_method, d.role,
            address_label(l) AS address
       FROM device d JOIN location l ON l.id = d.location_id
      WHERE d.device_code = ANY($1::text[])`,
    [rows.map((r) => r.deviceCode)],
  );
  const devices = new Map(deviceRows.map((d) => [d.device_code, d]));
  const { rows: euiRows } = await tx.query<{ dev_eui: string; device_code: string }>(
    'SELECT dev_eui, device_code FROM device WHERE dev_eui = ANY($1::text[])',
    [rows.flatMap((r) => (r.devEui ? [r.devEui] : []))],
  );
  const devEuis = new Map(euiRows.map((d) => [d.dev_eui, d.device_code]));
  return { locations, objects, objectsByLocation, clients, clientCodes, devices, devEuis };
}

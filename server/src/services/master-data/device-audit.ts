import type { Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';

/**
 * A device as the audit log records it, on every screen that changes devices (the device
 * forms and the register import; docs/master-data.md, "The audit log"). Times are ISO 8601
 * with the provider zone's offset, as everywhere in the API.
 */
export interface DeviceAudit {
  DeviceCode: string;
  DeviceTypeId: number;
  LocationId: number;
  CounterCode: string | null;
  DeviceDescription: string | null;
  /** The model as master data names it (docs/collectors.md, "Drivers"). */
  Model: string | null;
  RatingFactor: number | null;
  InstalledAt: string | null;
  RemovedAt: string | null;
  ReplacedBy: number | null;
  /** The day of its last verification or manufacture (docs/device-lifetime.md). */
  VerifiedOn: string | null;
  ReadMethod: string | null;
  /** A building-level role in the heat split (docs/heat-method.md, "Devices"). */
  Role: string | null;
  /** A LoRaWAN meter's DevEUI and decoder (docs/lorawan.md). */
  DevEui: string | null;
  Decoder: string | null;
}

/**
 * The one definition of DeviceAudit: SQL over a row of `device` named `d` (a table alias,
 * or a CTE of inserted or updated rows), so bulk writes build their entries in the
 * statement that writes the rows and single edits read the same shape back.
 */
export const deviceAuditSql = (d: string) =>
  `jsonb_build_object('DeviceCode', ${d}.device_code, 'DeviceTypeId', ${d}.device_type_id,
    'LocationId', ${d}.location_id, 'CounterCode', ${d}.counter_code, 'DeviceDescription', ${d}.description,
    'Model', ${d}.model, 'RatingFactor', ${d}.rating_factor::float8, 'InstalledAt', iso(${d}.installed_at),
    'RemovedAt', iso(${d}.removed_at), 'ReplacedBy', ${d}.replaced_by,
    'VerifiedOn', to_char(${d}.verified_on, 'YYYY-MM-DD'), 'ReadMethod', ${d}.read_method, 'Role', ${d}.role,
    'DevEui', ${d}.dev_eui, 'Decoder', ${d}.decoder)`;

/** A device's DeviceAudit as stored now (404 when there is no such device). */
export async function readDeviceAudit(db: Queryable, id: number): Promise<DeviceAudit> {
  const { rows } = await db.query<{ audit: DeviceAudit }>(
    `SELECT ${deviceAuditSql('d')} AS audit FROM device d WHERE d.id = $1`,
    [id],
  );
  if (!rows[0]) throw notFound('deviceNotFound');
  return rows[0].audit;
}

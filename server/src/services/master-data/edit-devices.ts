import {
  type AddDeviceBody,
  type AuditKind,
  deviceLevel,
  LOCATION_LEVEL,
  type MasterDevice,
  type ReadMethod,
  type ReplaceDeviceBody,
  rolesOfType,
} from '@rodmenys/contract';
import type { Db, Queryable, Tx } from '../../db/db.js';
import { badRequest, conflict, HttpError, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { DEVICE_COLUMNS, DEVICE_JOINS } from '../devices/device-row.js';
import { adoptWaiting } from '../ingest/ingest-telegrams.js';
import { LIFETIME_COLUMNS } from '../lifetime/device-dates.js';
import { adoptWaitingUplinks, assertDevEuiFree, checkDecoder, devEuiValue } from '../lorawan/device-eui.js';
import { writeIntoMonths } from '../partitions/partitions.js';
import { storeGivenReadings } from '../readings/store-readings.js';
import { type DeviceAudit, readDeviceAudit } from './device-audit.js';

/** The SELECT list of the contract's MasterDevice over `device d` with DEVICE_JOINS: a DeviceRow and its model. */
export const MASTER_DEVICE_COLUMNS = `${DEVICE_COLUMNS},\n  d.model AS "Model",\n  ${LIFETIME_COLUMNS},
  d.dev_eui AS "DevEui", d.decoder AS "Decoder"`;

export async function findDeviceRow(db: Queryable, id: number): Promise<MasterDevice> {
  const { rows } = await db.query<MasterDevice>(
    `SELECT ${MASTER_DEVICE_COLUMNS} FROM device d ${DEVICE_JOINS} WHERE d.id = $1`,
    [id],
  );
  if (!rows[0]) throw notFound('deviceNotFound');
  return rows[0];
}

/** Removal and installation times may not lie in the future (a little clock skew aside). */
const FUTURE_SLACK = "interval '10 minutes'";

/**
 * A moment from the API: ISO 8601 with an offset, or without one in the
 * provider's zone (the session's). Returns it as timestamptz text, checked.
 */
async function moment(tx: Queryable, value: string, field: string): Promise<string> {
  const { rows } = await tx
    .query<{ iso: string; future: boolean }>(
      `SELECT iso($1::timestamptz) AS iso, $1::timestamptz > now() + ${FUTURE_SLACK} AS future`,
      [value],
    )
    .catch((err: { code?: string }) => {
      if (err.code?.startsWith('22')) throw badRequest('invalidTime', { value }, field);
      throw err;
    });
  if (!rows[0]?.iso) throw badRequest('invalidTime', { value }, field);
  if (rows[0].future) throw badRequest('timeInFuture', {}, field);
  return rows[0].iso;
}

/** Serial numbers are unique for ever: one device per serial (409 with where it is). */
async function assertSerialFree(tx: Queryable, code: string): Promise<void> {
  const { rows } = await tx.query<{ address: string }>(
    'SELECT address_label(l) AS address FROM device d JOIN location l ON l.id = d.location_id WHERE d.device_code = $1',
    [code],
  );
  if (rows[0]) throw conflict('serialUsedAt', { code, address: rows[0].address });
}

const clean = (s: string | null | undefined) => (s == null ? null : s.trim() || null);

/**
 * Reads a changed device back, records the change in the audit log (before and after as
 * DeviceAudit, the shape the register import logs too, plus `extra`), and returns it.
 */
async function audited(
  tx: Tx,
  caller: Caller,
  kind: AuditKind,
  id: number,
  before: DeviceAudit | null,
  extra: Record<string, unknown> = {},
): Promise<MasterDevice> {
  const after = await findDeviceRow(tx, id);
  await recordAudit(tx, {
    actor: caller,
    kind,
    entity: 'device',
    entityId: id,
    before,
    after: { ...(await readDeviceAudit(tx, id)), ...extra },
  });
  return after;
}

/** Adds a device to a flat (types 1–4) or a building heat meter to a building, with an optional initial reading. */
export async function addDevice(db: Db, caller: Caller, input: AddDeviceBody): Promise<MasterDevice> {
  return writeIntoMonths(db, () =>
    db.transaction(async (tx) => {
      const { rows: locs } = await tx.query<{ level: number }>('SELECT level FROM location WHERE id = $1', [
        input.locationId,
      ]);
      if (!locs[0]) throw badRequest('locationMissing', {}, 'locationId');
      const { rowCount } = await tx.query('SELECT 1 FROM device_type WHERE id = $1', [input.deviceTypeId]);
      if (!rowCount) throw badRequest('unknownDeviceType', { id: String(input.deviceTypeId) }, 'deviceTypeId');
      const role = input.role ?? null;
      if (role !== null && !rolesOfType(input.deviceTypeId).includes(role)) {
        throw badRequest('roleNotOfType', { role, id: String(input.deviceTypeId) }, 'role');
      }
      const wanted = deviceLevel(input.deviceTypeId, role);
      if (locs[0].level !== wanted) {
        throw badRequest(
          wanted === LOCATION_LEVEL.building ? (role ? 'roleOnBuilding' : 'buildingMeterOnBuilding') : 'deviceOnFlat',
          {},
          'locationId',
        );
      }
      const code = input.deviceCode.trim();
      if (!code) throw badRequest('serialBlank', {}, 'deviceCode');
      await assertSerialFree(tx, code);
      const devEui = devEuiValue(input.devEui);
      if (devEui) await assertDevEuiFree(tx, devEui, null);
      checkDecoder(input.decoder, 'decoder');
      // A serial whose telegrams wait in the unmatched inbox: installed when it was first heard, so the
      // readings taken in with the device count (the operator may give another time).
      const { rows: waiting } = await tx.query<{ first_seen: string }>(
        'SELECT iso(first_seen) AS first_seen FROM unmatched_meter WHERE meter_id = $1',
        [code],
      );
      const installedAt = await moment(
        tx,
        input.installedAt ?? waiting[0]?.first_seen ?? new Date().toISOString(),
        'installedAt',
      );
      const { rows } = await tx.query<{ id: number }>(
        `INSERT INTO device (device_type_id, location_id, device_code, counter_code, description, rating_factor, installed_at, model,
                             verified_on, read_method, role, dev_eui, decoder)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) RETURNING id`,
        [
          input.deviceTypeId,
          input.locationId,
          code,
          clean(input.counterCode),
          clean(input.description),
          input.ratingFactor ?? null,
          installedAt,
          clean(input.model),
          input.verifiedOn ?? null,
          input.readMethod ?? null,
          role,
          devEui,
          input.decoder ?? null,
        ],
      );
      const id = rows[0]!.id;
      if (input.initialReading !== undefined) {
        await storeGivenReadings(tx, [{ deviceId: id, ts: installedAt, value: input.initialReading }]);
      }
      // Its telegrams waiting in the inbox become its readings now, not at the next collector request.
      if (waiting[0]) await adoptWaiting(tx, new Date(), [code]);
      if (devEui) await adoptWaitingUplinks(tx, [id]);
      return audited(tx, caller, 'device.create', id, null, { InitialReading: input.initialReading ?? null });
    }),
  );
}

/** Changes a device's description, rating factor, counter code or model (a field left out stays as it is). */
export async function updateDevice(
  db: Db,
  caller: Caller,
  id: number,
  input: {
    description?: string | null;
    ratingFactor?: number | null;
    counterCode?: string | null;
    model?: string | null;
    verifiedOn?: string | null;
    readMethod?: ReadMethod | null;
    devEui?: string | null;
    decoder?: string | null;
  },
): Promise<MasterDevice> {
  return writeIntoMonths(db, () =>
    db.transaction(async (tx) => {
      const before = await readDeviceAudit(tx, id);
      const devEui = devEuiValue(input.devEui);
      if (devEui) await assertDevEuiFree(tx, devEui, id);
      checkDecoder(input.decoder, 'decoder');
      await tx.query(
        `UPDATE device SET
         description = CASE WHEN $2 THEN $3 ELSE description END,
         rating_factor = CASE WHEN $4 THEN $5::numeric ELSE rating_factor END,
         counter_code = CASE WHEN $6 THEN $7 ELSE counter_code END,
         model = CASE WHEN $8 THEN $9 ELSE model END,
         verified_on = CASE WHEN $10 THEN $11::date ELSE verified_on END,
         read_method = CASE WHEN $12 THEN $13 ELSE read_method END,
         dev_eui = CASE WHEN $14 THEN $15 ELSE dev_eui END,
         decoder = CASE WHEN $16 THEN $17 ELSE decoder END
       WHERE id = $1`,
        [
          id,
          input.description !== undefined,
          clean(input.description),
          input.ratingFactor !== undefined,
          input.ratingFactor ?? null,
          input.counterCode !== undefined,
          clean(input.counterCode),
          input.model !== undefined,
          clean(input.model),
          input.verifiedOn !== undefined,
          input.verifiedOn ?? null,
          input.readMethod !== undefined,
          input.readMethod ?? null,
          input.devEui !== undefined,
          devEui,
          input.decoder !== undefined,
          input.decoder ?? null,
        ],
      );
      if (devEui && devEui !== before.DevEui) await adoptWaitingUplinks(tx, [id]);
      return audited(tx, caller, 'device.update', id, before);
    }),
  );
}

/** The device still in service, or a 400 saying why not; `at` must not precede its installation. */
async function deviceInService(tx: Tx, id: number, at: string, field: string): Promise<MasterDevice> {
  const device = await findDeviceRow(tx, id);
  if (device.RemovedAt !== null) throw badRequest('deviceAlreadyRemoved', { date: device.RemovedAt });
  const { rows } = await tx.query<{ early: boolean }>(
    'SELECT $2::timestamptz < installed_at AS early FROM device WHERE id = $1 FOR UPDATE',
    [id, at],
  );
  if (rows[0]?.early) throw badRequest('beforeInstalled', { date: String(device.InstalledAt) }, field);
  return device;
}

/** Takes a device out of service; its final reading is stored at the removal time. */
export async function removeDevice(
  db: Db,
  caller: Caller,
  id: number,
  input: { removedAt: string; finalReading: number },
): Promise<MasterDevice> {
  return writeIntoMonths(db, () =>
    db.transaction(async (tx) => {
      const removedAt = await moment(tx, input.removedAt, 'removedAt');
      await deviceInService(tx, id, removedAt, 'removedAt');
      const before = await readDeviceAudit(tx, id);
      await tx.query('UPDATE device SET removed_at = $2 WHERE id = $1', [id, removedAt]);
      await storeGivenReadings(tx, [{ deviceId: id, ts: removedAt, value: input.finalReading }]);
      return audited(tx, caller, 'device.remove', id, before, { FinalReading: input.finalReading });
    }),
  );
}

/**
 * Replaces a device in one step (docs/domain.md §8): the old one is removed at
 * replacedAt with its final reading and points to the new one (same type and
 * place), installed at replacedAt with its initial reading.
 */
export async function replaceDevice(
  db: Db,
  caller: Caller,
  id: number,
  input: ReplaceDeviceBody,
): Promise<{ Old: MasterDevice; New: MasterDevice }> {
  try {
    return await writeIntoMonths(db, () =>
      db.transaction(async (tx) => {
        const at = await moment(tx, input.replacedAt, 'replacedAt');
        await deviceInService(tx, id, at, 'replacedAt');
        const before = await readDeviceAudit(tx, id);
        const code = input.newDeviceCode.trim();
        if (!code) throw badRequest('newSerialBlank', {}, 'newDeviceCode');
        await assertSerialFree(tx, code);
        // The new device's DevEUI: its own, or the old one's when the radio module moved with the meter.
        if (input.newDevEui != null && input.keepDevEui) throw badRequest('devEuiBothGiven', {}, 'keepDevEui');
        const newDevEui = input.keepDevEui ? before.DevEui : devEuiValue(input.newDevEui);
        if (newDevEui && !input.keepDevEui) await assertDevEuiFree(tx, newDevEui, null);
        checkDecoder(input.newDecoder, 'newDecoder');
        if (input.keepDevEui) await tx.query('UPDATE device SET dev_eui = NULL WHERE id = $1', [id]);
        const { rows } = await tx.query<{ id: number }>(
          `INSERT INTO device (device_type_id, location_id, device_code, counter_code, description, rating_factor, installed_at, model,
                              verified_on, read_method, role, dev_eui, decoder)
         SELECT device_type_id, location_id, $2, $3,
                CASE WHEN $4 THEN $5 ELSE description END, CASE WHEN $6 THEN $7::numeric ELSE rating_factor END, $8,
                CASE WHEN $9 THEN $10 ELSE model END,
                -- A new device's dates start anew: verified (or made) on the replacement day unless given.
                coalesce($11::date, $8::timestamptz::date), CASE WHEN $12 THEN $13 ELSE read_method END, role,
                $14, CASE WHEN $15 THEN $16 ELSE decoder END
           FROM device WHERE id = $1
         RETURNING id`,
          [
            id,
            code,
            clean(input.newCounterCode),
            input.newDescription !== undefined,
            clean(input.newDescription),
            input.newRatingFactor !== undefined,
            input.newRatingFactor ?? null,
            at,
            input.newModel !== undefined,
            clean(input.newModel),
            input.newVerifiedOn ?? null,
            input.newReadMethod !== undefined,
            input.newReadMethod ?? null,
            newDevEui,
            input.newDecoder !== undefined,
            input.newDecoder ?? null,
          ],
        );
        const newId = rows[0]!.id;
        await tx.query('UPDATE device SET removed_at = $2, replaced_by = $3 WHERE id = $1', [id, at, newId]);
        await storeGivenReadings(tx, [
          { deviceId: id, ts: at, value: input.finalReading },
          { deviceId: newId, ts: at, value: input.initialReading },
        ]);
        await adoptWaiting(tx, new Date(), [code]);
        if (newDevEui) await adoptWaitingUplinks(tx, [newId]);
        const result = { Old: await findDeviceRow(tx, id), New: await findDeviceRow(tx, newId) };
        await recordAudit(tx, {
          actor: caller,
          kind: 'device.replace',
          entity: 'device',
          entityId: id,
          before,
          after: {
            Old: { ...(await readDeviceAudit(tx, id)), FinalReading: input.finalReading },
            New: { DeviceId: newId, ...(await readDeviceAudit(tx, newId)), InitialReading: input.initialReading },
          },
        });
        return result;
      }),
    );
  } catch (err) {
    // Two replacements racing for one serial: the unique index decides.
    if ((err as { code?: string }).code === '23505' && !(err instanceof HttpError)) {
      throw conflict('serialInUse', { code: input.newDeviceCode });
    }
    throw err;
  }
}

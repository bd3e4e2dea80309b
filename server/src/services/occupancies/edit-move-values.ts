import type { MoveValueRow } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { inScope } from '../sql.js';
import { parseDay } from '../time.js';
import { computeMoveValues, movesSql } from './move-values.js';
import { moveValueSql } from './occupancies.js';

async function readMoveValue(
  db: Queryable,
  reader: Caller,
  deviceId: number,
  day: string,
): Promise<MoveValueRow | null> {
  const { rows } = await db.query<MoveValueRow>(
    `SELECT ${moveValueSql(reader)} FROM move_value mv JOIN device d ON d.id = mv.device_id
       LEFT JOIN app_user u ON u.id = mv.set_by WHERE mv.device_id = $1 AND mv.day = $2::date`,
    [deviceId, day],
  );
  return rows[0] ?? null;
}

/** The flat of the device, when `day` is a moving day of that flat; else 404. */
async function assertMovingDay(db: Queryable, deviceId: number, day: string): Promise<number> {
  const { rows } = await db.query<{ location_id: number }>(
    `SELECT d.location_id FROM device d WHERE d.id = $1
        AND $2::date IN (SELECT m.day FROM (${movesSql('o.location_id = d.location_id')}) m)`,
    [deviceId, day],
  );
  if (!rows[0]) throw notFound('moveValueNotFound');
  return rows[0].location_id;
}

/** Sets a device's moving-day value by hand, with a reason (source manual, never replaced automatically; audited). */
export async function setMoveValue(
  db: Db,
  caller: Caller,
  deviceId: number,
  dayText: string,
  body: { value: number; reason: string },
): Promise<MoveValueRow> {
  const day = parseDay(dayText, 'day');
  const reason = body.reason.trim();
  if (!reason) throw badRequest('reasonRequired', {}, 'reason');
  return db.transaction(async (tx) => {
    await assertMovingDay(tx, deviceId, day);
    const before = await readMoveValue(tx, caller, deviceId, day);
    await tx.query(
      `INSERT INTO move_value AS mv (device_id, day, value, source, reason, set_by)
       VALUES ($1, $2::date, $3, 'manual', $4, $5)
       ON CONFLICT (device_id, day) DO UPDATE SET
         value = excluded.value, source = 'manual', reason = excluded.reason, set_by = excluded.set_by,
         reading_ts = NULL, next_ts = NULL, method = NULL, computed_at = now(),
         previous_value = mv.value, previous_source = mv.source, changed_at = now()`,
      [deviceId, day, body.value, reason, caller.id],
    );
    const after = (await readMoveValue(tx, caller, deviceId, day))!;
    await recordAudit(tx, {
      actor: caller,
      kind: 'moveValue.set',
      entity: 'moveValue',
      entityId: `${deviceId}/${day}`,
      before,
      after,
    });
    return after;
  });
}

/** Removes a manual moving-day value (audited) and computes it again from the readings. */
export async function clearMoveValue(db: Db, caller: Caller, deviceId: number, dayText: string): Promise<void> {
  const day = parseDay(dayText, 'day');
  await db.transaction(async (tx) => {
    const flatId = await assertMovingDay(tx, deviceId, day);
    const before = await readMoveValue(tx, caller, deviceId, day);
    if (before?.Source !== 'manual') throw notFound('noManualMoveValue');
    await tx.query('DELETE FROM move_value WHERE device_id = $1 AND day = $2::date', [deviceId, day]);
    await computeMoveValues(tx, { flatIds: [flatId], deviceIds: [deviceId] });
    await recordAudit(tx, {
      actor: caller,
      kind: 'moveValue.clear',
      entity: 'moveValue',
      entityId: `${deviceId}/${day}`,
      before,
      after: await readMoveValue(tx, caller, deviceId, day),
    });
  });
}

/** A device's moving-day values, oldest first; 404 outside the caller's scope. */
export async function listDeviceMoveValues(
  db: Queryable,
  scope: number[] | null,
  deviceId: number,
  reader: Pick<Caller, 'id' | 'groupId'>,
): Promise<MoveValueRow[]> {
  const { rowCount } = await db.query(
    `SELECT 1 FROM device d JOIN location l ON l.id = d.location_id WHERE d.id = $1 AND ${inScope('l', '$2')}`,
    [deviceId, scope],
  );
  if (!rowCount) throw notFound('deviceNotFound');
  const { rows } = await db.query<MoveValueRow>(
    `SELECT ${moveValueSql(reader)} FROM move_value mv JOIN device d ON d.id = mv.device_id
       LEFT JOIN app_user u ON u.id = mv.set_by WHERE mv.device_id = $1 ORDER BY mv.day`,
    [deviceId],
  );
  return rows;
}

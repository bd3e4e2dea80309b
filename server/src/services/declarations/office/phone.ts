import type { BodyOf, enterPhoneDeclaration, OfficeDeclaration } from '@rodmenys/contract';
import type { Db } from '../../../db/db.js';
import { badRequest, notFound } from '../../../errors.js';
import { recordAudit } from '../../audit/record-audit.js';
import type { Caller } from '../../auth/caller.js';
import { inScope } from '../../sql.js';
import { applyDeclarations } from '../apply.js';
import { declaredDevice } from '../devices.js';
import { declaredAtSql } from '../rows.js';
import { assertDeclarationOffice } from './access.js';
import { openDoubtfulAnomaly } from './apply.js';
import { declarationRows } from './rows.js';

/** A number as the checks' messages write it (as the occupant's, services/declarations/declare.ts). */
const fmt = (n: number) => String(Number(n.toFixed(6)));

/**
 * A declaration the back office enters for an occupant who phoned (docs/declared-readings.md):
 * the device (a declared one of a flat in the caller's scope, else 404), the day the occupant read it
 * (not in the future; the declaration is stamped the end of that day, or now for today), who called.
 * Checked like the occupant's own: below the previous value is refused; above the plausible maximum it
 * needs `confirm` and is doubtful (an anomaly opens). For the occupancy living in the flat that day.
 * Audited with the user (`declaration.phone`).
 */
export async function enterPhone(
  db: Db,
  caller: Caller,
  body: BodyOf<typeof enterPhoneDeclaration>,
): Promise<OfficeDeclaration> {
  assertDeclarationOffice(caller);
  const id = await db.transaction(async (tx) => {
    const { rows: found } = await tx.query<{
      flat: number;
      future: boolean;
      at: Date;
      month: string;
      occupancy: number | null;
    }>(
      `SELECT f.id AS flat, $3::date > current_date AS future, x.at, date_trunc('month', $3::date)::date::text AS month,
              (SELECT o.id FROM occupancy o WHERE o.location_id = f.id AND coalesce(o.move_in, '-infinity') <= $3::date
                  AND coalesce(o.move_out, 'infinity') > $3::date ORDER BY o.move_in DESC NULLS LAST LIMIT 1) AS occupancy
         FROM device d JOIN location f ON f.id = d.location_id,
              LATERAL (SELECT CASE WHEN $3::date = current_date THEN now()
                                   ELSE ($3::date + 1)::timestamp::timestamptz - interval '1 second' END AS at) x
        WHERE d.id = $1 AND ${inScope('f', '$2')}
        FOR UPDATE OF d`,
      [body.deviceId, caller.scope, body.day],
    );
    const dev = found[0];
    if (!dev) throw notFound('deviceNotFound');
    if (dev.future) throw badRequest('declarationDayInFuture', {}, 'day');
    if (dev.occupancy === null) throw badRequest('declarationNoOccupant', { day: body.day }, 'day');
    // The occupant's own checks (services/declarations/devices.ts): a declared device of the flat, in
    // service that day, its previous value and plausible maximum as the occupant's pages compute them.
    const device = await declaredDevice(tx, dev.occupancy, dev.at, dev.month, body.deviceId);
    if (!device) throw badRequest('declarationDeviceNotDeclared', {}, 'deviceId');
    const bounds = {
      previous: device.previous_value === null ? null : Number(device.previous_value),
      max: device.plausible_max === null ? null : Number(device.plausible_max),
    };
    if (bounds.previous !== null && body.value < bounds.previous)
      throw badRequest('declarationBelowPrevious', { previous: fmt(bounds.previous) }, 'value');
    const doubtful = bounds.max !== null && body.value > bounds.max;
    if (doubtful && !body.confirm) throw badRequest('declarationNeedsConfirmation', { max: fmt(bounds.max!) }, 'value');
    const callerName = body.callerName.trim();
    const callerPhone = body.callerPhone?.trim() || null;
    const { rows } = await tx.query<{ id: number; month: string }>(
      `INSERT INTO declaration (device_id, occupancy_id, location_id, value, declared_at, month, entered_by, channel,
                                status, confirmed, plausible_max, previous_value, caller_name, caller_phone)
       VALUES ($1, $2, $3, $4, ${declaredAtSql('$5')}, $13::date, $6, 'phone', $7, $8, $9, $10, $11, $12)
       RETURNING id, month::text AS month`,
      [
        body.deviceId,
        dev.occupancy,
        dev.flat,
        body.value,
        dev.at,
        caller.id,
        doubtful ? 'doubtful' : 'accepted',
        doubtful,
        bounds.max,
        bounds.previous,
        callerName,
        callerPhone,
        dev.month,
      ],
    );
    const row = rows[0]!;
    if (doubtful) await openDoubtfulAnomaly(tx, row.id);
    await applyDeclarations(tx, body.deviceId, row.month);
    await recordAudit(tx, {
      actor: caller,
      kind: 'declaration.phone',
      entity: 'declaration',
      entityId: row.id,
      before: null,
      after: {
        DeviceId: body.deviceId,
        Value: body.value,
        Day: body.day,
        CallerName: callerName,
        CallerPhone: callerPhone,
        Status: doubtful ? 'doubtful' : 'accepted',
      },
    });
    return row.id;
  });
  return (await declarationRows(db, caller, { id }))[0]!;
}

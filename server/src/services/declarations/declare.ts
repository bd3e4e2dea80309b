import type { Declaration, DeclarationReceipt, DeclareBody, OccupantDeclarations } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, HttpError, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import { applyDeclarations } from './apply.js';
import { declaredDevice, declaredDevices } from './devices.js';
import { openDoubtfulAnomaly } from './office/apply.js';
import { DECLARATION_COLUMNS, declaredAtSql } from './rows.js';
import { currentWindow } from './window.js';

/*
 * The occupant's declarations (docs/declared-readings.md). Everything is keyed by the session's
 * occupancy: a device of another flat, or one that is not declared, is not found (404).
 */

/** Who declares: the occupant's session (the back office's phone entries: office/phone.ts). */
export type Declarer = { occupancyId: number; sessionId: number | null };

/** The window and the occupancy's declared devices. */
export async function occupantDeclarations(
  db: Queryable,
  occupancyId: number,
  now = new Date(),
): Promise<OccupantDeclarations> {
  const window = await currentWindow(db, now);
  return { Window: window, Devices: await declaredDevices(db, occupancyId, now, `${window.Month}-01`) };
}

/** One declaration in the contract's shape. */
export async function declarationById(db: Queryable, id: number): Promise<Declaration> {
  const { rows } = await db.query<Declaration>(`SELECT ${DECLARATION_COLUMNS} FROM declaration x WHERE x.id = $1`, [
    id,
  ]);
  if (!rows[0]) throw notFound();
  return rows[0];
}

const fmt = (n: number) => String(Number(n.toFixed(6)));

/**
 * Declares a reading inside the window: checked against the previous value (never below it) and
 * the plausible maximum (above it only with `confirm`: then `doubtful`, and a DECLARED_DOUBTFUL
 * anomaly opens for the back office); stored, audited, and applied (apply.ts). Returns the stored
 * declaration with its device's serial; the caller sends the receipt.
 */
export async function declare(
  db: Db,
  who: Declarer,
  body: DeclareBody,
  now = new Date(),
): Promise<Omit<DeclarationReceipt, 'Emailed'> & { month: string }> {
  return db.transaction(async (tx) => {
    const window = await currentWindow(tx, now);
    const month = `${window.Month}-01`;
    // One declaration of a device at a time: the checks below see the ones before.
    await tx.query('SELECT 1 FROM device WHERE id = $1 FOR UPDATE', [body.deviceId]);
    const device = await declaredDevice(tx, who.occupancyId, now, month, body.deviceId);
    if (!device) throw notFound();
    if (!window.Open) {
      throw new HttpError(409, 'declarationWindowClosed', {
        month: window.Month,
        opens: window.Opens,
        closes: window.Closes,
      });
    }
    const previous = device.previous_value === null ? null : Number(device.previous_value);
    const max = device.plausible_max === null ? null : Number(device.plausible_max);
    if (previous !== null && body.value < previous) {
      throw badRequest('declarationBelowPrevious', { previous: fmt(previous) }, 'value');
    }
    const doubtful = max !== null && body.value > max;
    if (doubtful && body.confirm !== true) {
      throw badRequest('declarationNeedsConfirmation', { max: fmt(max) }, 'value');
    }
    if (body.photoId !== undefined) {
      const { rowCount } = await tx.query('SELECT 1 FROM declaration_photo WHERE id = $1 AND occupancy_id = $2', [
        body.photoId,
        who.occupancyId,
      ]);
      if (!rowCount) throw notFound();
    }
    const { rows } = await tx.query<{ id: number }>(
      `INSERT INTO declaration (device_id, occupancy_id, location_id, value, declared_at, month, occupant_session_id,
                                entered_by, channel, photo_id, status, confirmed, plausible_max, previous_value)
       VALUES ($1, $2, $3, $4, ${declaredAtSql('$5')}, $6::date, $7, $8, $9, $10, $11, $12, $13, $14) RETURNING id`,
      [
        body.deviceId,
        who.occupancyId,
        device.location_id,
        body.value,
        now,
        month,
        who.sessionId,
        null,
        'occupant',
        body.photoId ?? null,
        doubtful ? 'doubtful' : 'accepted',
        doubtful,
        max,
        previous,
      ],
    );
    const id = rows[0]!.id;
    if (doubtful) await openDoubtfulAnomaly(tx, id);
    await applyDeclarations(tx, body.deviceId, month);
    const stored = await declarationById(tx, id);
    await recordAudit(tx, {
      actor: null,
      kind: 'declaration.create',
      entity: 'declaration',
      entityId: id,
      before: null,
      after: {
        DeviceId: stored.DeviceId,
        Month: stored.Month,
        Value: stored.Value,
        Status: stored.Status,
        Channel: stored.Channel,
      },
    });
    return { Declaration: stored, DeviceCode: device.device_code, month };
  });
}

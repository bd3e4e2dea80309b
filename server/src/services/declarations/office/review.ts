import type { OfficeDeclaration } from '@rodmenys/contract';
import type { Db, Queryable } from '../../../db/db.js';
import { badRequest, notFound } from '../../../errors.js';
import { recordAudit } from '../../audit/record-audit.js';
import type { Caller } from '../../auth/caller.js';
import { inScope } from '../../sql.js';
import { applyDeclarations } from '../apply.js';
import { assertDeclarationOffice } from './access.js';
import { resolveDoubtfulAnomaly } from './apply.js';
import { queueDecisionNotice } from './notices.js';
import { declarationRows, type RowFilter } from './rows.js';

/** A month's declarations for review (docs/declared-readings.md), scoped. */
export async function listDeclarations(db: Queryable, caller: Caller, filter: RowFilter & { month: string }) {
  assertDeclarationOffice(caller);
  return { Month: filter.month, Rows: await declarationRows(db, caller, filter) };
}

/** A declaration's photo, only for a caller who sees its flat: 404 otherwise, and without a photo. */
export async function declarationPhoto(
  db: Queryable,
  caller: Caller,
  id: number,
): Promise<{ mime: string; bytes: Buffer }> {
  assertDeclarationOffice(caller);
  const { rows } = await db.query<{ mime: string; bytes: Buffer | Uint8Array }>(
    `SELECT p.mime, p.bytes FROM declaration x
       JOIN location f ON f.id = x.location_id
       JOIN declaration_photo p ON p.id = x.photo_id
      WHERE x.id = $1 AND ${inScope('f', '$2')}`,
    [id, caller.scope],
  );
  const r = rows[0];
  if (!r) throw notFound('declarationNotFound');
  return { mime: r.mime, bytes: Buffer.from(r.bytes) };
}

/**
 * Accepts or rejects a declaration (docs/declared-readings.md): a rejection needs a reason and
 * stops the declaration counting (the month is valued again from the one that counts now, if any).
 * Audited (`declaration.decide`, before and after); the occupant is told by e-mail where they consented.
 */
export async function decideDeclaration(
  db: Db,
  caller: Caller,
  id: number,
  body: { accept: boolean; reason?: string | undefined },
): Promise<OfficeDeclaration> {
  assertDeclarationOffice(caller);
  const reason = body.reason?.trim() || null;
  if (!body.accept && !reason) throw badRequest('declarationReasonRequired', {}, 'reason');
  await db.transaction(async (tx) => {
    const { rows } = await tx.query<{ device_id: number; month: string; status: string; reason: string | null }>(
      `SELECT x.device_id, x.month::text AS month, x.status, x.reason FROM declaration x
         JOIN location f ON f.id = x.location_id
        WHERE x.id = $1 AND ${inScope('f', '$2')}
        FOR UPDATE OF x`,
      [id, caller.scope],
    );
    const before = rows[0];
    if (!before) throw notFound('declarationNotFound');
    const status = body.accept ? 'accepted' : 'rejected';
    await tx.query(
      'UPDATE declaration SET status = $2, reason = $3, decided_by = $4, decided_at = now() WHERE id = $1',
      [id, status, reason, caller.id],
    );
    await resolveDoubtfulAnomaly(tx, before.device_id, before.month);
    await applyDeclarations(tx, before.device_id, before.month);
    await queueDecisionNotice(tx, id, body.accept ? 'accepted' : 'rejected');
    await recordAudit(tx, {
      actor: caller,
      kind: 'declaration.decide',
      entity: 'declaration',
      entityId: id,
      before: { Status: before.status, Reason: before.reason },
      after: { Status: status, Reason: reason },
    });
  });
  return (await declarationRows(db, caller, { id }))[0]!;
}

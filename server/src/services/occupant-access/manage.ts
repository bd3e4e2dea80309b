import {
  canManageUsers,
  formatLetterCode,
  type OccupantAccess,
  occupantLinkUrl,
  type ReissuedOccupantAccess,
} from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { forbidden, notFound } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { inScope } from '../sql.js';
import { issueLetterCode, issueLink, revokeSecrets } from './secrets.js';
import { accessUntilSql } from './sessions.js';

/*
 * The back office's hold on an occupancy's secrets (docs/occupant-access.md): group 1 for every
 * occupancy, group 2 for those of flats inside its scope; anyone else 403, outside the scope 404.
 */

function requireManager(caller: Caller): void {
  if (caller.key || !canManageUsers(caller.groupId)) throw forbidden('occupantAccessAdminsOnly');
}

const ACCESS = (o: string) => `${o}.id AS "OccupancyId",
  (SELECT count(*)::int FROM occupant_link k WHERE k.occupancy_id = ${o}.id AND k.revoked_at IS NULL) AS "ActiveLinks",
  (SELECT iso(max(k.issued_at)) FROM occupant_link k WHERE k.occupancy_id = ${o}.id) AS "LastLinkIssuedAt",
  (SELECT iso(c.issued_at) FROM occupant_letter_code c WHERE c.occupancy_id = ${o}.id AND c.revoked_at IS NULL) AS "LetterCodeIssuedAt",
  ${accessUntilSql(o)}::text AS "AccessUntil",
  (SELECT iso(max(s.created_at)) FROM occupant_session s WHERE s.occupancy_id = ${o}.id) AS "LastSignInAt"`;

/** The occupancy's secrets' state, when the caller manages access and sees its flat (else 403/404). */
export async function getOccupantAccess(db: Queryable, caller: Caller, occupancyId: number): Promise<OccupantAccess> {
  requireManager(caller);
  const { rows } = await db.query<OccupantAccess>(
    `SELECT ${ACCESS('o')} FROM occupancy o JOIN location l ON l.id = o.location_id
      WHERE o.id = $1 AND ${inScope('l', '$2')}`,
    [occupancyId, caller.scope],
  );
  if (!rows[0]) throw notFound('occupancyNotFound');
  return rows[0];
}

/** Locks the occupancy the caller may manage (else 403/404), for a change in `tx`. */
async function lockOccupancy(tx: Queryable, caller: Caller, occupancyId: number): Promise<void> {
  requireManager(caller);
  const { rowCount } = await tx.query(
    `SELECT 1 FROM occupancy o JOIN location l ON l.id = o.location_id
      WHERE o.id = $1 AND ${inScope('l', '$2')} FOR UPDATE OF o`,
    [occupancyId, caller.scope],
  );
  if (!rowCount) throw notFound('occupancyNotFound');
}

/** Revokes every link and the letter code of the occupancy; its sessions end at once. Audited. */
export async function revokeOccupantAccess(db: Db, caller: Caller, occupancyId: number): Promise<OccupantAccess> {
  return db.transaction(async (tx) => {
    await lockOccupancy(tx, caller, occupancyId);
    const revoked = await revokeSecrets(tx, occupancyId);
    await recordAudit(tx, {
      actor: caller,
      kind: 'occupantAccess.revoke',
      entity: 'occupancy',
      entityId: occupancyId,
      before: null,
      after: { RevokedSecrets: revoked },
    });
    return getOccupantAccess(tx, caller, occupancyId);
  });
}

/**
 * Revokes the occupancy's secrets and issues a new link and letter code, returned once (the link
 * under `publicUrl`). Audited (never the secrets themselves).
 */
export async function reissueOccupantAccess(
  db: Db,
  caller: Caller,
  occupancyId: number,
  publicUrl: string,
): Promise<ReissuedOccupantAccess> {
  return db.transaction(async (tx) => {
    await lockOccupancy(tx, caller, occupancyId);
    const revoked = await revokeSecrets(tx, occupancyId);
    const token = await issueLink(tx, occupancyId);
    const code = await issueLetterCode(tx, occupancyId);
    await recordAudit(tx, {
      actor: caller,
      kind: 'occupantAccess.reissue',
      entity: 'occupancy',
      entityId: occupancyId,
      before: null,
      after: { RevokedSecrets: revoked, Issued: ['link', 'letterCode'] },
    });
    return {
      Access: await getOccupantAccess(tx, caller, occupancyId),
      Link: occupantLinkUrl(publicUrl, token),
      Token: token,
      LetterCode: formatLetterCode(code),
    };
  });
}

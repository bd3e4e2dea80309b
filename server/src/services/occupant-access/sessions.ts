import { randomBytes } from 'node:crypto';
import { OCCUPANT_SESSION_PREFIX } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { hashToken } from './secrets.js';

/*
 * Occupant sessions (docs/occupant-access.md): what a link or a letter code is exchanged for.
 * Looked up in the database on every request, so a revoked secret, a past access end or a
 * sign-out holds at once on every instance.
 */

/** The caller of an occupant endpoint: one occupancy of one flat, nothing else. */
export interface OccupantCaller {
  sessionId: number;
  occupancyId: number;
  flatId: number;
}

/** The setting `occupantAccess.graceDays` (docs/occupant-access.md), as SQL; 90 if it is missing. */
export const GRACE_DAYS_SQL = `coalesce((SELECT (value #>> '{}')::int FROM dq_setting WHERE key = 'occupantAccess.graceDays'), 90)`;

/** The occupancy `o`'s last day of access (null: open-ended), as SQL. */
export const accessUntilSql = (o: string) => `(${o}.move_out - 1 + ${GRACE_DAYS_SQL})`;

/** Whether the occupancy `o` may still open its pages today (provider's zone), as SQL. */
export const accessOpenSql = (o: string) => `(${o}.move_out IS NULL OR current_date <= ${accessUntilSql(o)})`;

/** Opens a session for an occupancy from a link or a letter code; returns its bearer value and end. */
export async function openSession(
  db: Queryable,
  occupancyId: number,
  from: { linkId: number } | { codeId: number },
  ttlSeconds: number,
): Promise<{ token: string; expiresAt: string }> {
  const token = OCCUPANT_SESSION_PREFIX + randomBytes(32).toString('base64url');
  const { rows } = await db.query<{ expires_at: string }>(
    `INSERT INTO occupant_session (token_hash, occupancy_id, link_id, code_id, expires_at)
     VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5)) RETURNING iso(expires_at) AS expires_at`,
    [
      hashToken(token),
      occupancyId,
      'linkId' in from ? from.linkId : null,
      'codeId' in from ? from.codeId : null,
      ttlSeconds,
    ],
  );
  return { token, expiresAt: rows[0]!.expires_at };
}

/**
 * The occupant of a session's bearer value, or undefined: unknown, ended, expired, its secret revoked, access over.
 * A session found past its occupancy's access end is ended there and then: the end is stored, so raising
 * `occupantAccess.graceDays` later revives it no more than the trigger of migration 200 lets it.
 */
export async function findSession(db: Queryable, token: string): Promise<OccupantCaller | undefined> {
  if (!token.startsWith(OCCUPANT_SESSION_PREFIX) || token.length > 200) return undefined;
  const { rows } = await db.query<OccupantCaller & { open: boolean }>(
    `SELECT s.id AS "sessionId", s.occupancy_id AS "occupancyId", o.location_id AS "flatId",
            ${accessOpenSql('o')} AS open
       FROM occupant_session s
       JOIN occupancy o ON o.id = s.occupancy_id
       LEFT JOIN occupant_link k ON k.id = s.link_id
       LEFT JOIN occupant_letter_code c ON c.id = s.code_id
      WHERE s.token_hash = $1 AND s.ended_at IS NULL AND s.expires_at > now()
        AND coalesce(k.revoked_at, c.revoked_at) IS NULL AND (k.id IS NOT NULL OR c.id IS NOT NULL)`,
    [hashToken(token)],
  );
  const found = rows[0];
  if (!found) return undefined;
  if (!found.open) {
    await endSession(db, found.sessionId);
    return undefined;
  }
  return { sessionId: found.sessionId, occupancyId: found.occupancyId, flatId: found.flatId };
}

/** Ends one session (sign-out). */
export async function endSession(db: Queryable, sessionId: number): Promise<void> {
  await db.query('UPDATE occupant_session SET ended_at = now() WHERE id = $1 AND ended_at IS NULL', [sessionId]);
}

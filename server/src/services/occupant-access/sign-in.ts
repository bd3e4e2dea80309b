import type { OccupantSession } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import type { ThrottleSettings } from '../../env.js';
import { unauthorized } from '../../errors.js';
import { verifyNothing, verifyPassword } from '../auth/password.js';
import { hashToken, normaliseLetterCode } from './secrets.js';
import { accessOpenSql, openSession } from './sessions.js';
import { countCodeAttempt, releaseCodeAttempt } from './throttle.js';

/*
 * Exchanging a secret for an occupant session (docs/occupant-access.md). Every failure answers the
 * same 401, whatever was wrong: unknown, revoked, access over, another flat's code, no such flat.
 */

type Language = OccupantSession['Language'];

const failed = () => unauthorized('occupantSignInFailed');

/** A link's token for a session: the link must be live and its occupancy's access open. */
export async function signInByLink(db: Queryable, token: string, ttlSeconds: number): Promise<OccupantSession> {
  const { rows } = await db.query<{ id: number; occupancy_id: number; language: Language }>(
    `SELECT k.id, k.occupancy_id, o.language FROM occupant_link k JOIN occupancy o ON o.id = k.occupancy_id
      WHERE k.token_hash = $1 AND k.revoked_at IS NULL AND ${accessOpenSql('o')}`,
    [hashToken(token)],
  );
  const link = rows[0];
  if (!link) throw failed();
  const session = await openSession(db, link.occupancy_id, { linkId: link.id }, ttlSeconds);
  return { Token: session.token, ExpiresAt: session.expiresAt, Language: link.language };
}

/**
 * Checks at least this many hashes on every attempt (padding with a dummy), so that a flat with no
 * live code, or none at all, answers in the time of one with a code: the answer's time does not
 * tell whether a flat exists.
 */
const MIN_CHECKS = 2;

/**
 * A flat's number and a letter code for a session, throttled per flat, per address and overall
 * (429 with Retry-After). The code is checked against the live codes of the flat's occupancies
 * whose access is open; a wrong code and a flat that does not exist answer the same 401.
 */
export async function signInByCode(
  db: Queryable,
  limits: ThrottleSettings,
  input: { flatId: number; code: string; address: string },
  ttlSeconds: number,
): Promise<OccupantSession> {
  await countCodeAttempt(db, limits, input.flatId, input.address);
  const code = normaliseLetterCode(input.code);
  const { rows } = await db.query<{ id: number; occupancy_id: number; code_hash: string; language: Language }>(
    `SELECT c.id, c.occupancy_id, c.code_hash, o.language
       FROM occupant_letter_code c JOIN occupancy o ON o.id = c.occupancy_id
      WHERE o.location_id = $1 AND c.revoked_at IS NULL AND ${accessOpenSql('o')}
      ORDER BY c.id`,
    [input.flatId],
  );
  let found: (typeof rows)[number] | undefined;
  // Every candidate is checked (no early exit), and a typed text that cannot be a code costs the same.
  for (const row of rows) if ((await verifyPassword(code ?? input.code, row.code_hash)) && code) found ??= row;
  for (let i = rows.length; i < MIN_CHECKS; i++) await verifyNothing(code ?? input.code);
  if (!found) throw failed();
  await releaseCodeAttempt(db, input.flatId, input.address);
  const session = await openSession(db, found.occupancy_id, { codeId: found.id }, ttlSeconds);
  return { Token: session.token, ExpiresAt: session.expiresAt, Language: found.language };
}

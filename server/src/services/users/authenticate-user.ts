import type { UserSession } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import type { ThrottleSettings } from '../../env.js';
import { badRequest } from '../../errors.js';
import { verifyNothing, verifyPassword } from '../auth/password.js';
import { issueToken } from '../auth/tokens.js';
import { countSignInAttempt, isKnownAddress, signInSucceeded } from './sign-in-throttle.js';
import { USER_COLUMNS } from './user-row.js';

/**
 * The one answer to every refused sign-in: unknown user, wrong password, and a
 * deactivated account whatever the password, so it confirms nothing
 * (docs/security.md).
 */
export const WRONG_CREDENTIALS = 'wrongCredentials';

/**
 * Signs a user in from `address`. Every refusal answers 400 with one message
 * (unknown user, wrong password, deactivated account), after the same password
 * work; throttled attempts answer 429 with Retry-After before any password work
 * (sign-in-throttle.ts). SignedIn in the answer is the previous successful sign-in.
 */
export async function authenticateUser(
  db: Queryable,
  input: { username: string; password: string },
  options: { secret: Uint8Array; ttlSeconds: number; throttle: ThrottleSettings; timeZone: string; address: string },
): Promise<UserSession> {
  const username = input.username.trim();
  if (!username) throw badRequest('required', {}, 'username');
  const { rows } = await db.query<{ id: number; password_hash: string; active: boolean; session_generation: number }>(
    'SELECT id, password_hash, active, session_generation FROM app_user WHERE lower(username) = lower($1)',
    [username],
  );
  const account = rows[0];
  const attempt = {
    account: username.toLowerCase(),
    address: options.address,
    addressKnown: await isKnownAddress(db, account?.id, options.address),
  };
  await countSignInAttempt(db, options.throttle, attempt);
  let ok = false;
  if (account) ok = await verifyPassword(input.password, account.password_hash);
  else await verifyNothing(input.password);
  if (!account || !ok || !account.active) throw badRequest(WRONG_CREDENTIALS);
  await signInSucceeded(db, options.throttle, attempt, account.id);
  const { rows: updated } = await db.query<Omit<UserSession, 'Token' | 'Expires' | 'TimeZone'>>(
    `UPDATE app_user u SET signed_in = last_sign_in, last_sign_in = now()
      WHERE id = $1
      RETURNING ${USER_COLUMNS}`,
    [account.id],
  );
  const user = updated[0]!;
  const { token, claims } = await issueToken(
    options.secret,
    account.id,
    options.ttlSeconds,
    account.session_generation,
  );
  return {
    Token: token,
    Expires: claims.expiresAt.toISOString(),
    Id: user.Id,
    Username: user.Username,
    FirstName: user.FirstName,
    LastName: user.LastName,
    GroupId: user.GroupId,
    Email: user.Email,
    Phone: user.Phone,
    SignedIn: user.SignedIn,
    TimeZone: options.timeZone,
  };
}

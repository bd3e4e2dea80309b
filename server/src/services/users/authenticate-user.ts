import type { UserSession } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { badRequest, tooManyRequests } from '../../errors.js';
import { verifyNothing, verifyPassword } from '../auth/password.js';
import { issueToken } from '../auth/tokens.js';
import { USER_COLUMNS } from './user-row.js';

export const WRONG_CREDENTIALS = 'The user name or password is incorrect';

/** Failed sign-ins per user name: after MAX_FAILURES within WINDOW_MS, the name is locked for the rest of the window. */
const MAX_FAILURES = 10;
const WINDOW_MS = 15 * 60_000;
const MAX_TRACKED = 10_000;

export class LoginThrottle {
  #failures = new Map<string, { count: number; since: number }>();

  check(username: string, now = Date.now()): void {
    const entry = this.#failures.get(username.toLowerCase());
    if (entry && now - entry.since < WINDOW_MS && entry.count >= MAX_FAILURES) {
      const minutes = Math.ceil((entry.since + WINDOW_MS - now) / 60_000);
      throw tooManyRequests(`Too many failed sign-ins for this user name; try again in ${minutes} min`);
    }
  }

  fail(username: string, now = Date.now()): void {
    const key = username.toLowerCase();
    const entry = this.#failures.get(key);
    if (!entry || now - entry.since >= WINDOW_MS) {
      if (this.#failures.size >= MAX_TRACKED) this.#failures.delete(this.#failures.keys().next().value as string);
      this.#failures.set(key, { count: 1, since: now });
    } else {
      entry.count++;
    }
  }

  succeed(username: string): void {
    this.#failures.delete(username.toLowerCase());
  }
}

/**
 * Signs a user in. Wrong credentials answer 400 with one message whether the
 * user exists or not, after the same password work either way. SignedIn in the
 * answer is the previous successful sign-in.
 */
export async function authenticateUser(
  db: Queryable,
  input: { username: string; password: string },
  options: { secret: Uint8Array; ttlSeconds: number; throttle: LoginThrottle; timeZone: string },
): Promise<UserSession> {
  const username = input.username.trim();
  options.throttle.check(username);
  const { rows } = await db.query<{ id: number; password_hash: string; active: boolean }>(
    'SELECT id, password_hash, active FROM app_user WHERE lower(username) = lower($1)',
    [username],
  );
  const account = rows[0];
  let ok = false;
  if (account) ok = await verifyPassword(input.password, account.password_hash);
  else await verifyNothing(input.password);
  if (!account || !ok) {
    options.throttle.fail(username);
    throw badRequest(WRONG_CREDENTIALS);
  }
  if (!account.active) throw badRequest('This account is deactivated; ask an administrator');
  options.throttle.succeed(username);
  const { rows: updated } = await db.query<Omit<UserSession, 'Token' | 'Expires' | 'TimeZone'>>(
    `UPDATE app_user u SET signed_in = last_sign_in, last_sign_in = now()
      WHERE id = $1
      RETURNING ${USER_COLUMNS}`,
    [account.id],
  );
  const user = updated[0]!;
  const { token, claims } = await issueToken(options.secret, account.id, options.ttlSeconds);
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

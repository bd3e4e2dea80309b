import type { Queryable } from '../../db/db.js';
import type { ThrottleSettings } from '../../env.js';
import { tooManyRequests } from '../../errors.js';

/**
 * Sign-in and registration throttling (docs/security.md "Throttling"). The state
 * lives in the database, so every server instance shares it.
 *
 * Three counters of failed sign-ins, each with growing delays once its free
 * failures are used: the (account, address) pair; the account from addresses it
 * never signed in from; the address whatever the account. A stranger's
 * failures therefore never hold the owner back at an address the owner signed
 * in from before, and a new password (the owner's or an administrator's
 * reset) clears the account's counters.
 */

export interface SignInAttempt {
  /** The user name as typed, lower-cased (whether or not the account exists). */
  account: string;
  address: string;
  /** The account has signed in from this address before. */
  addressKnown: boolean;
}

const MESSAGE_SIGN_IN = 'tooManyFailedSignIns';
const MESSAGE_REGISTER = 'tooManyRegistrations';

/** The counters an attempt counts against: [account, address, free failures]. */
function counters(s: ThrottleSettings, a: SignInAttempt): [string, string, number][] {
  const list: [string, string, number][] = [
    [a.account, a.address, s.signInFreeFailures],
    ['', a.address, s.signInAddressFreeFailures],
  ];
  if (!a.addressKnown) list.push([a.account, '', s.signInAccountFreeFailures]);
  return list;
}

const secondsUntil = (until: Date | string) => Math.max(1, Math.ceil((new Date(until).getTime() - Date.now()) / 1000));

/**
 * Counts a sign-in attempt before its password is checked, or refuses it with
 * 429 and Retry-After while one of its counters is held back. Counting first
 * means parallel guesses cannot slip past a limit; a successful attempt is
 * given back by `signInSucceeded`. The n-th failure on a counter with f free
 * failures (n ≥ f) holds it back for delay × 2^(n−f), at most the longest delay.
 */
export async function countSignInAttempt(db: Queryable, s: ThrottleSettings, attempt: SignInAttempt): Promise<void> {
  const keys = counters(s, attempt);
  const failures = `CASE WHEN t.last_failure < now() - $4::float8 * interval '1 second' THEN 1 ELSE t.failures + 1 END`;
  const free = `CASE WHEN t.account = '' THEN $7::int WHEN t.address = '' THEN $8::int ELSE $9::int END`;
  const delay = (n: string, f: string) =>
    `CASE WHEN ${n} >= ${f} THEN now() + least($5::float8 * power(2, least(${n} - ${f}, 40)), $6::float8) * interval '1 second' END`;
  const { rows } = await db.query<{ held_until: string | null }>(
    `WITH k(account, address, free) AS (SELECT * FROM unnest($1::text[], $2::text[], $3::int[])),
     held AS (
       SELECT max(t.blocked_until) AS until FROM sign_in_throttle t JOIN k USING (account, address)
        WHERE t.blocked_until > now()),
     counted AS (
       INSERT INTO sign_in_throttle AS t (account, address, failures, last_failure, blocked_until)
       SELECT k.account, k.address, 1, now(), ${delay('1', 'k.free')} FROM k
        WHERE (SELECT until FROM held) IS NULL
       ON CONFLICT (account, address) DO UPDATE SET
         failures = CASE WHEN t.blocked_until > now() THEN t.failures ELSE ${failures} END,
         last_failure = CASE WHEN t.blocked_until > now() THEN t.last_failure ELSE now() END,
         blocked_until = CASE WHEN t.blocked_until > now() THEN t.blocked_until ELSE ${delay(failures, free)} END
       RETURNING t.blocked_until, t.last_failure = now() AS counted)
     SELECT iso(coalesce((SELECT until FROM held),
                         (SELECT max(blocked_until) FROM counted WHERE NOT counted))) AS held_until`,
    [
      keys.map((k) => k[0]),
      keys.map((k) => k[1]),
      keys.map((k) => k[2]),
      s.signInForgetSeconds,
      s.signInDelaySeconds,
      s.signInMaxDelaySeconds,
      s.signInAddressFreeFailures,
      s.signInAccountFreeFailures,
      s.signInFreeFailures,
    ],
  );
  const held = rows[0]?.held_until;
  if (held) throw tooManyRequests(MESSAGE_SIGN_IN, {}, secondsUntil(held));
}

/**
 * A successful sign-in: the (account, address) counter is cleared, the attempt
 * counted against the others is given back, the address becomes known, and old
 * counters are swept.
 */
export async function signInSucceeded(
  db: Queryable,
  s: ThrottleSettings,
  attempt: SignInAttempt,
  userId: number,
): Promise<void> {
  await db.query('DELETE FROM sign_in_throttle WHERE account = $1 AND address = $2', [
    attempt.account,
    attempt.address,
  ]);
  await db.query(
    `UPDATE sign_in_throttle t SET failures = t.failures - 1,
            blocked_until = CASE WHEN t.failures - 1 >= (CASE WHEN t.account = '' THEN $4::int ELSE $5::int END)
                                 THEN t.blocked_until END
      WHERE t.failures > 0 AND ((t.account = '' AND t.address = $2) OR (t.account = $1 AND t.address = '' AND NOT $3))`,
    [attempt.account, attempt.address, attempt.addressKnown, s.signInAddressFreeFailures, s.signInAccountFreeFailures],
  );
  await db.query(
    `INSERT INTO known_sign_in_address (user_id, address, last_sign_in) VALUES ($1, $2, now())
     ON CONFLICT (user_id, address) DO UPDATE SET last_sign_in = now()`,
    [userId, attempt.address],
  );
  await db.query(
    `DELETE FROM sign_in_throttle
      WHERE last_failure < now() - $1::float8 * interval '1 second' AND (blocked_until IS NULL OR blocked_until < now())`,
    [s.signInForgetSeconds],
  );
}

/** Whether the account has signed in from this address before. */
export async function isKnownAddress(db: Queryable, userId: number | undefined, address: string): Promise<boolean> {
  if (userId === undefined) return false;
  const { rows } = await db.query('SELECT 1 FROM known_sign_in_address WHERE user_id = $1 AND address = $2', [
    userId,
    address,
  ]);
  return rows.length > 0;
}

/** A new password: the account's failed sign-ins are forgotten, from every address. */
export async function forgetSignInFailures(db: Queryable, username: string): Promise<void> {
  await db.query('DELETE FROM sign_in_throttle WHERE account = lower($1)', [username.trim()]);
}

/** Counts a self-registration from `address`; 429 with Retry-After past the limit of the window. */
export async function countRegistration(db: Queryable, s: ThrottleSettings, address: string): Promise<void> {
  await db.query(`DELETE FROM register_throttle WHERE window_start < now() - 2 * $1::float8 * interval '1 second'`, [
    s.registerWindowSeconds,
  ]);
  const { rows } = await db.query<{ attempts: number; retry: number }>(
    `INSERT INTO register_throttle AS t (address, window_start, attempts) VALUES ($1, now(), 1)
     ON CONFLICT (address) DO UPDATE SET
       window_start = CASE WHEN t.window_start <= now() - $2::float8 * interval '1 second' THEN now() ELSE t.window_start END,
       attempts = CASE WHEN t.window_start <= now() - $2::float8 * interval '1 second' THEN 1 ELSE t.attempts + 1 END
     RETURNING t.attempts, extract(epoch FROM t.window_start + $2::float8 * interval '1 second' - now())::float8 AS retry`,
    [address, s.registerWindowSeconds],
  );
  const row = rows[0]!;
  if (row.attempts > s.registerLimit) {
    throw tooManyRequests(MESSAGE_REGISTER, {}, Math.max(1, Math.ceil(row.retry)));
  }
}

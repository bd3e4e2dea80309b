import type { Queryable } from '../../db/db.js';
import type { ThrottleSettings } from '../../env.js';
import { tooManyRequests } from '../../errors.js';

/*
 * The occupant's code page throttle (docs/security.md, "The occupant's code page"): attempts are
 * counted per flat, per client address and overall in fixed windows, kept in the database so that
 * every instance counts together. Counted before the code is checked (parallel attempts cannot
 * slip past the limit); a successful sign-in gives its attempt back.
 */

type Limits = Pick<
  ThrottleSettings,
  'occupantCodeFlatAttempts' | 'occupantCodeAddressAttempts' | 'occupantCodeAllAttempts' | 'occupantCodeWindowSeconds'
>;

const keysOf = (flatId: number, address: string) => [`address:${address}`, 'all', `flat:${flatId}`].sort();

/** Counts one attempt on the code page; 429 with Retry-After when a counter is past its limit. */
export async function countCodeAttempt(db: Queryable, limits: Limits, flatId: number, address: string): Promise<void> {
  const window = limits.occupantCodeWindowSeconds;
  // Forget finished windows now and then (the table holds one row per address seen in a window).
  if (Math.random() < 0.05)
    await db.query('DELETE FROM occupant_code_throttle WHERE window_start < now() - make_interval(secs => $1)', [
      window,
    ]);
  const { rows } = await db.query<{ key: string; attempts: number; retry_after: number }>(
    `INSERT INTO occupant_code_throttle AS t (key, attempts, window_start)
     SELECT k, 1, now() FROM unnest($1::text[]) AS u(k)
     ON CONFLICT (key) DO UPDATE SET
       attempts = CASE WHEN t.window_start <= now() - make_interval(secs => $2) THEN 1 ELSE t.attempts + 1 END,
       window_start = CASE WHEN t.window_start <= now() - make_interval(secs => $2) THEN now() ELSE t.window_start END
     RETURNING key, attempts,
               greatest(1, ceil(extract(epoch FROM t.window_start + make_interval(secs => $2) - now())))::int AS retry_after`,
    [keysOf(flatId, address), window],
  );
  const limit = (key: string) =>
    key === 'all'
      ? limits.occupantCodeAllAttempts
      : key.startsWith('flat:')
        ? limits.occupantCodeFlatAttempts
        : limits.occupantCodeAddressAttempts;
  const over = rows.filter((r) => r.attempts > limit(r.key));
  if (over.length) throw tooManyRequests('occupantTooManyAttempts', {}, Math.max(...over.map((r) => r.retry_after)));
}

/** Gives back the attempt of a successful sign-in: an occupant who knows the code does not use up the limits. */
export async function releaseCodeAttempt(db: Queryable, flatId: number, address: string): Promise<void> {
  await db.query(
    'UPDATE occupant_code_throttle SET attempts = greatest(attempts - 1, 0) WHERE key = ANY ($1::text[])',
    [keysOf(flatId, address)],
  );
}

import type { Queryable } from '../../db/db.js';

/**
 * The first month whose figures a late declaration may still recalculate (docs/declared-readings.md,
 * "Late declarations"): the provider's month of `now` (the session's zone, TIME_ZONE) less
 * `declarations.recalcMonths` (N). With N = 3 in November: August, September and October (and November)
 * are open, July and before are closed. As 'YYYY-MM-01'.
 */
export async function firstOpenMonth(db: Queryable, now: Date, recalcMonths?: number): Promise<string> {
  const { rows } = await db.query<{ first: string }>(
    `SELECT (date_trunc('month', $1::timestamptz)
               - make_interval(months => coalesce($2::int,
                   (SELECT (value #>> '{}')::int FROM dq_setting WHERE key = 'declarations.recalcMonths'), 3)))::date::text
              AS first`,
    [now, recalcMonths ?? null],
  );
  return rows[0]!.first;
}

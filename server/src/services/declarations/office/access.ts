import { GROUP, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable } from '../../../db/db.js';
import { forbidden } from '../../../errors.js';
import type { Caller } from '../../auth/caller.js';

/**
 * Who works on declarations in the back office (docs/declared-readings-office.md): groups 1 and 2,
 * group 2 within its scope; group 3 and integration keys get 403.
 */
export function assertDeclarationOffice(caller: Caller): void {
  if (caller.key || caller.groupId === GROUP.user) throw forbidden('declarationsAdminsOnly');
}

/**
 * A declared device as SQL over `device d`: read by hand (read method `manual`, docs/device-lifetime.md),
 * on a flat. Radio devices never are.
 */
export const isDeclaredDeviceSql = (d: string, f: string) =>
  `${d}.read_method = 'manual' AND ${f}.level = ${LOCATION_LEVEL.flat}`;

/** A declaration window: the month it is for and its first and last day (the provider's zone). */
export interface Window {
  month: string;
  opens: string;
  closes: string;
  open: boolean;
}

/**
 * The window of `month` (YYYY-MM), or without one the month whose window is open at `now` (else the
 * last one that closed): from `declarations.windowStartDay` to `declarations.windowEndDay` (each at
 * most the month's last day), whole days in the provider's zone.
 */
export async function windowOf(db: Queryable, month: string | undefined, now: Date = new Date()): Promise<Window> {
  const { rows } = await db.query<Window>(
    `WITH s AS (
       SELECT coalesce((SELECT (value #>> '{}')::int FROM dq_setting WHERE key = 'declarations.windowStartDay'), 21) AS sd,
              coalesce((SELECT (value #>> '{}')::int FROM dq_setting WHERE key = 'declarations.windowEndDay'), 31) AS ed,
              $2::timestamptz::date AS today
     ), m AS (
       SELECT s.*, coalesce($1::date,
                CASE WHEN s.today >= least(date_trunc('month', s.today)::date + (s.sd - 1),
                                           (date_trunc('month', s.today) + interval '1 month - 1 day')::date)
                     THEN date_trunc('month', s.today)::date
                     ELSE (date_trunc('month', s.today) - interval '1 month')::date END) AS m
         FROM s
     ), w AS (
       SELECT m.m, m.today, least(m.m + (m.sd - 1), (m.m + interval '1 month - 1 day')::date) AS opens,
              least(m.m + (m.ed - 1), (m.m + interval '1 month - 1 day')::date) AS closes
         FROM m
     )
     SELECT to_char(m, 'YYYY-MM') AS month, opens::text AS opens, closes::text AS closes,
            today BETWEEN opens AND closes AS open
       FROM w`,
    [month ? `${month}-01` : null, now],
  );
  return rows[0]!;
}

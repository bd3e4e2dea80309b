import { GROUP, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable } from '../../../db/db.js';
import { forbidden } from '../../../errors.js';
import type { Caller } from '../../auth/caller.js';
import { readNowSql } from '../../lifetime/device-dates.js';
import { DECLARED_TYPES } from '../devices.js';
import { windowOfMonth } from '../window.js';

/**
 * Who works on declarations in the back office (docs/declared-readings.md): groups 1 and 2,
 * group 2 within its scope; group 3 and integration keys get 403.
 */
export function assertDeclarationOffice(caller: Caller): void {
  if (caller.key || caller.groupId === GROUP.user) throw forbidden('declarationsAdminsOnly');
}

/**
 * A declared device as SQL over `device d` on location `f` with its `device_status ds`: a heat or water meter
 * (DECLARED_TYPES) on a flat, read by hand now (`read_method_now` = manual, docs/device-lifetime.md), as the occupant's pages list them
 * (services/declarations/devices.ts). A device a collector hears never is.
 */
export const isDeclaredDeviceSql = (d: string, f: string, ds: string) =>
  `${f}.level = ${LOCATION_LEVEL.flat} AND ${d}.device_type_id IN (${DECLARED_TYPES.join(', ')})
   AND ${readNowSql(d, ds)} = 'manual'`;

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
  const { rows } = await db.query<{ today: string; start: number | null; end: number | null }>(
    `SELECT to_char($1::timestamptz, 'YYYY-MM-DD') AS today,
            (SELECT (value #>> '{}')::int FROM dq_setting WHERE key = 'declarations.windowStartDay') AS start,
            (SELECT (value #>> '{}')::int FROM dq_setting WHERE key = 'declarations.windowEndDay') AS end`,
    [now],
  );
  const { today, start, end } = rows[0]!;
  const of = (m: string) => windowOfMonth(`${m}-01`, start ?? 21, end ?? 31);
  let m = month ?? today.slice(0, 7);
  // Without a month: this month's window once it has opened, else the last one (it has closed).
  if (!month && today < of(m).opens) {
    const [y, mm] = m.split('-').map(Number) as [number, number];
    m = mm === 1 ? `${y - 1}-12` : `${y}-${String(mm - 1).padStart(2, '0')}`;
  }
  const w = of(m);
  return { month: m, opens: w.opens, closes: w.closes, open: today >= w.opens && today <= w.closes };
}

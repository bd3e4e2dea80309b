import type { Queryable } from '../../db/db.js';

/** The account a flat was billed to in a month. */
export interface Account {
  code: string;
  name: string;
}

/**
 * The account valid for each flat in month `month` (YYYY-MM): the client code of the flat's last occupancy
 * that month and the occupant's name (docs/occupancies.md, "Accounts in time"), as the flat's statement
 * carries it; a flat without occupancies keeps its client. Every export row of a flat takes its account here
 * (an occupant's own rows take their occupancy's).
 */
export async function accountsAt(
  db: Queryable,
  flatIds: readonly number[],
  month: string,
): Promise<Map<number, Account>> {
  if (!flatIds.length) return new Map();
  const { rows } = await db.query<{ flat_id: number; code: string; name: string }>(
    `SELECT l.id AS flat_id, c.code, coalesce(oc.name, c.name) AS name
       FROM location l
       LEFT JOIN LATERAL (
         SELECT o.client_id, o.name FROM occupancy o
          WHERE o.location_id = l.id AND coalesce(o.move_in, '-infinity') < ($2::date + interval '1 month')::date
          ORDER BY o.move_in DESC NULLS LAST LIMIT 1) oc ON true
       JOIN client c ON c.id = coalesce(oc.client_id, l.client_id)
      WHERE l.id = ANY ($1::int[])`,
    [flatIds, `${month}-01`],
  );
  return new Map(rows.map((r) => [r.flat_id, { code: r.code, name: r.name }]));
}

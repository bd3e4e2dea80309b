import type { Queryable } from '../../db/db.js';

/** The account a flat was billed to in a month. */
export interface Account {
  code: string;
  name: string;
}

/**
 * The account valid for each flat in month `month` (YYYY-MM): today the flat's client, the only account
 * the data model knows. This is the one place to change when flats have occupants over time (the
 * account held at that time, docs/integration.md "Accounts"): every export row takes its account here.
 */
export async function accountsAt(
  db: Queryable,
  flatIds: readonly number[],
  _month: string,
): Promise<Map<number, Account>> {
  if (!flatIds.length) return new Map();
  const { rows } = await db.query<{ flat_id: number; code: string; name: string }>(
    `SELECT l.id AS flat_id, c.code, c.name FROM location l JOIN client c ON c.id = l.client_id
      WHERE l.id = ANY ($1::int[])`,
    [flatIds],
  );
  return new Map(rows.map((r) => [r.flat_id, { code: r.code, name: r.name }]));
}

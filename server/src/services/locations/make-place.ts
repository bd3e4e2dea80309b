import type { Queryable } from '../../db/db.js';

/**
 * Finding or creating a chain of locations by name, country down: the test
 * factories and the benchmarks build their worlds with it.
 */

const LEVEL_COLUMNS = ['country', 'county', 'region', 'city', 'street', 'building', 'flat'] as const;

/** A location: its id, the ids from the country down (`path`), and the names along it. */
export interface Place {
  id: number;
  path: number[];
  names: string[];
}

/** Finds or creates the locations named from the country down (a level per name); returns the last. */
export async function makePlace(db: Queryable, names: readonly string[], flatOrder?: number): Promise<Place> {
  let parent: { id: number; path: number[]; address: Record<string, string | null> } | undefined;
  for (const [i, name] of names.entries()) {
    const level = i + 1;
    const found = await db.query<{ id: number; path: number[] }>(
      'SELECT id, path FROM location WHERE coalesce(parent_id, 0) = $1 AND lower(name) = lower($2)',
      [parent?.id ?? 0, name],
    );
    const address: Record<string, string | null> = { ...(parent?.address ?? {}), [LEVEL_COLUMNS[i]!]: name };
    let row = found.rows[0];
    if (!row) {
      const cols = LEVEL_COLUMNS.slice(0, level);
      const inserted = await db.query<{ id: number; path: number[] }>(
        `WITH n AS (SELECT nextval(pg_get_serial_sequence('location', 'id'))::int AS id)
         INSERT INTO location (id, parent_id, level, name, flat_order, path, ${cols.join(', ')})
         SELECT n.id, $1, $2, $3, $4, $5::int[] || n.id, ${cols.map((_, j) => `$${j + 6}`).join(', ')} FROM n
         RETURNING id, path`,
        [
          parent?.id ?? null,
          level,
          name,
          level === 7 ? (flatOrder ?? null) : null,
          parent?.path ?? [],
          ...cols.map((c) => address[c]),
        ],
      );
      row = inserted.rows[0]!;
    }
    parent = { id: row.id, path: row.path, address };
  }
  if (!parent) throw new Error('makePlace needs at least a country');
  return { id: parent.id, path: parent.path, names: [...names] };
}

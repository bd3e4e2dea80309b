import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { locationInsert, placeLocations } from './insert-locations.js';

/**
 * Finding or creating a chain of locations by name, country down: the test
 * factories and the benchmarks build their worlds with it.
 */

/** A location: its id, the ids from the country down (`path`), and the names along it. */
export interface Place {
  id: number;
  path: number[];
  names: string[];
}

/** Finds or creates the locations named from the country down (a level per name); returns the last. */
export async function makePlace(db: Queryable, names: readonly string[], flatOrder?: number): Promise<Place> {
  let parent: { id: number; path: number[] } | undefined;
  for (const [i, name] of names.entries()) {
    const found = await db.query<{ id: number; path: number[] }>(
      'SELECT id, path FROM location WHERE coalesce(parent_id, 0) = $1 AND lower(name) = lower($2)',
      [parent?.id ?? 0, name],
    );
    let row = found.rows[0];
    if (!row) {
      const own = names.slice(0, i + 1);
      const [placed] = await placeLocations(
        db,
        [{ names: own, flatOrder: own.length === LOCATION_LEVEL.flat ? (flatOrder ?? null) : null }],
        () => parent,
      );
      const { sql, params } = locationInsert([placed!]);
      row = (await db.query<{ id: number; path: number[] }>(`${sql} RETURNING id, path`, params)).rows[0]!;
    }
    parent = { id: row.id, path: row.path };
  }
  if (!parent) throw new Error('makePlace needs at least a country');
  return { id: parent.id, path: parent.path, names: [...names] };
}

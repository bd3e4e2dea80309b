import { ADDRESS_COLUMNS, LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';

/**
 * The one way a location is created (docs/domain.md §2, §3): its id is taken from the
 * sequence first, so that its `path` (the ids from the country down, its own last) and
 * its address columns (its ancestors' names and its own) are written in the same INSERT.
 * The register import, makePlace (test worlds, benchmarks) and the UI benchmark go through here.
 */

/** A location to create: its names from the country down (its level is their count) and a flat's details. */
export interface LocationToCreate {
  names: readonly string[];
  flatOrder?: number | null;
  clientId?: number | null;
  areaM2?: number | null;
}

/** A stored location a new one hangs under. */
export interface ParentLocation {
  id: number;
  path: readonly number[];
}

/** A location with its id, parent and path decided, ready for `locationInsert`. */
export interface PlacedLocation extends LocationToCreate {
  id: number;
  parentId: number | null;
  level: number;
  path: number[];
}

/** A location's natural key: its names from the country down, case-insensitive. */
export const locationKey = (names: readonly (string | null)[]) =>
  names.map((n) => (n ?? '').toLowerCase()).join('\u0000');

/**
 * Takes ids for `locs` and builds their paths. A parent is one placed earlier in `locs`
 * (parents come first) or a stored one that `storedParent` finds by its names.
 */
export async function placeLocations(
  db: Queryable,
  locs: readonly LocationToCreate[],
  storedParent: (names: readonly string[]) => ParentLocation | undefined,
): Promise<PlacedLocation[]> {
  if (locs.length === 0) return [];
  const { rows: ids } = await db.query<{ id: number }>(
    `SELECT nextval(pg_get_serial_sequence('location', 'id'))::int AS id FROM generate_series(1, $1::int)`,
    [locs.length],
  );
  const placed = new Map<string, PlacedLocation>();
  return locs.map((loc, i) => {
    const level = loc.names.length;
    if (level < LOCATION_LEVEL.country || level > LOCATION_LEVEL.flat)
      throw new RangeError(`no location level ${level}`);
    const parentNames = loc.names.slice(0, -1);
    const parent =
      level === LOCATION_LEVEL.country
        ? undefined
        : (placed.get(locationKey(parentNames)) ?? storedParent(parentNames));
    if (level !== LOCATION_LEVEL.country && !parent) throw new Error(`no parent for ${loc.names.join(', ')}`);
    const id = ids[i]!.id;
    const row: PlacedLocation = {
      ...loc,
      id,
      parentId: parent?.id ?? null,
      level,
      path: [...(parent?.path ?? []), id],
    };
    placed.set(locationKey(loc.names), row);
    return row;
  });
}

/**
 * The INSERT of placed locations, one statement over arrays (no RETURNING: callers add
 * theirs, or wrap it with their audit entries), and its parameters.
 */
export function locationInsert(locs: readonly PlacedLocation[]): { sql: string; params: unknown[] } {
  const columns = ADDRESS_COLUMNS.join(', ');
  const names = ADDRESS_COLUMNS.map((_, i) => `u.c${i + 1}`).join(', ');
  const namesAs = ADDRESS_COLUMNS.map((_, i) => `c${i + 1}`).join(', ');
  const nameParams = ADDRESS_COLUMNS.map((_, i) => `$${i + 7}::text[]`).join(', ');
  const n = ADDRESS_COLUMNS.length + 6;
  return {
    sql: `INSERT INTO location (id, parent_id, level, name, flat_order, path, ${columns}, client_id, area_m2)
     SELECT u.id, u.parent_id, u.level, u.name, u.flat_order, u.path::int[], ${names}, u.client_id, u.area_m2
       FROM unnest($1::int[], $2::int[], $3::int[], $4::text[], $5::int[], $6::text[], ${nameParams},
                   $${n + 1}::int[], $${n + 2}::numeric[])
         AS u(id, parent_id, level, name, flat_order, path, ${namesAs}, client_id, area_m2)`,
    params: [
      locs.map((l) => l.id),
      locs.map((l) => l.parentId),
      locs.map((l) => l.level),
      locs.map((l) => l.names[l.level - 1]!),
      locs.map((l) => l.flatOrder ?? null),
      locs.map((l) => `{${l.path.join(',')}}`),
      ...ADDRESS_COLUMNS.map((_, i) => locs.map((l) => l.names[i] ?? null)),
      locs.map((l) => l.clientId ?? null),
      locs.map((l) => l.areaM2 ?? null),
    ],
  };
}

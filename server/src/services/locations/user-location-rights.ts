import { GROUP, LOCATION_LEVEL, type VisibleLocation } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { inScope } from '../sql.js';

/**
 * A user's selectable objects (docs/domain.md §3): a granted building or flat
 * is one row; a granted area above building level is a heading (id 0) followed
 * by its buildings. A group 1 user, who sees everything, gets every city as a heading.
 * Only locations inside `scope` (the caller's; null = everything) are listed.
 */
export async function userLocationRights(
  db: Queryable,
  userId: number,
  scope: number[] | null,
): Promise<VisibleLocation[]> {
  const { rows } = await db.query<{
    root_id: number;
    root_level: number;
    root_label: string;
    id: number | null;
    label: string | null;
  }>(
    `WITH u AS (SELECT group_id FROM app_user WHERE id = $1),
     roots AS (
       SELECT l.* FROM location l JOIN location_right r ON r.location_id = l.id
        WHERE r.user_id = $1 AND (SELECT group_id FROM u) <> ${GROUP.operator}
       UNION ALL
       SELECT l.* FROM location l WHERE l.level = ${LOCATION_LEVEL.city} AND (SELECT group_id FROM u) = ${GROUP.operator}
     )
     SELECT r.id AS root_id, r.level AS root_level, address_label(r) AS root_label, b.id, address_label(b) AS label
       FROM roots r
       LEFT JOIN location b ON r.level < ${LOCATION_LEVEL.building} AND b.level = ${LOCATION_LEVEL.building} AND b.path && ARRAY[r.id]
                           AND ${inScope('b', '$2')}
      WHERE ${inScope('r', '$2')}
      ORDER BY r.country, r.county NULLS FIRST, r.region NULLS FIRST, r.city NULLS FIRST, r.street NULLS FIRST,
               building_number(r.building), r.building NULLS FIRST, r.flat_order NULLS FIRST, r.id,
               b.street, building_number(b.building), b.building`,
    [userId, scope],
  );
  const out: VisibleLocation[] = [];
  let heading: number | undefined;
  for (const row of rows) {
    if (row.root_level >= LOCATION_LEVEL.building) {
      out.push({ VisibleLocationPath: row.root_label, VisibleLocationId: row.root_id });
      continue;
    }
    if (heading !== row.root_id) {
      heading = row.root_id;
      out.push({ VisibleLocationPath: row.root_label, VisibleLocationId: 0 });
    }
    if (row.id !== null && row.label !== null) out.push({ VisibleLocationPath: row.label, VisibleLocationId: row.id });
  }
  return out;
}

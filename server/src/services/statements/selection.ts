import { LOCATION_LEVEL } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { buildingIdOf, buildingOrder, cityIdOf, inScope } from '../sql.js';

/*
 * Which flats a statement request covers (docs/statements.md): the selection SQL of the
 * statements, in one place, with the one address order.
 */

/** Which flats: the caller's scope and subtrees (as GetDevicesData), or given flats. */
export type FlatSelection =
  | { scope: number[] | null; parents: number[] | null; flatIds?: undefined }
  | { flatIds: number[]; scope: number[] | null; parents?: undefined };

/** Flats in address order, over a building alias `b` and a flat alias `f`. */
const flatOrder = (b: string, f: string) => `${buildingOrder(b)}, ${f}.flat_order NULLS FIRST, ${f}.flat, ${f}.id`;

/** The selection's test on a flat alias `s` and its parameters. */
function selectionWhere(selection: FlatSelection): { where: string; params: unknown[] } {
  return selection.flatIds
    ? { where: `s.id = ANY ($1::int[]) AND ${inScope('s', '$2')}`, params: [selection.flatIds, selection.scope] }
    : { where: `${inScope('s', '$1')} AND ${inScope('s', '$2')}`, params: [selection.scope, selection.parents] };
}

/** A flat of a building that holds a selected flat: what its figures need to know of it. */
export interface BuildingFlat {
  flat_id: number;
  building_id: number;
  city_id: number | null;
  city: string | null;
  street: string | null;
  building: string | null;
  flat: string;
  flat_order: number | null;
  area_m2: number | null;
  /** The account of the month's last occupant (docs/occupancies.md), else the flat's client. */
  client_code: string | null;
  /** In the selection (the others are there for the building's averages and sharing). */
  selected: boolean;
}

/**
 * The flats of the selection, and every other flat of their buildings, in address order; each
 * with the account valid at the end of `month` (its last occupant's that month), not today's.
 */
export async function loadBuildingFlats(
  db: Queryable,
  selection: FlatSelection,
  month: string,
): Promise<BuildingFlat[]> {
  const { where, params } = selectionWhere(selection);
  const { rows } = await db.query<BuildingFlat>(
    `WITH sel AS (SELECT s.id, ${buildingIdOf('s')} AS building FROM location s WHERE s.level = ${LOCATION_LEVEL.flat} AND ${where}),
     -- The buildings in address order once (dense_rank: buildings with the same address share a place, as
     -- in the address order), not their address compared again for every pair of flats sorted.
     bl AS (SELECT b.id, dense_rank() OVER (ORDER BY ${buildingOrder('b')}) AS place
              FROM location b WHERE b.id IN (SELECT building FROM sel))
     SELECT l.id AS flat_id, ${buildingIdOf('l')} AS building_id, ${cityIdOf('l')} AS city_id, l.city, l.street, l.building, l.flat,
            l.flat_order, l.area_m2::float8 AS area_m2, c.code AS client_code,
            l.id IN (SELECT id FROM sel) AS selected
       FROM location l
       JOIN bl ON bl.id = ${buildingIdOf('l')}
       LEFT JOIN LATERAL (
         SELECT o.client_id FROM occupancy o
          WHERE o.location_id = l.id AND coalesce(o.move_in, '-infinity') < ($3::date + interval '1 month')::date
          ORDER BY o.move_in DESC NULLS LAST LIMIT 1) oc ON true
       LEFT JOIN client c ON c.id = coalesce(oc.client_id, l.client_id)
      WHERE l.level = ${LOCATION_LEVEL.flat}
      ORDER BY bl.place, l.flat_order NULLS FIRST, l.flat, l.id`,
    [...params, `${month}-01`],
  );
  return rows;
}

/** A selected flat with its building's latest publication of the month, if any. */
export interface PublishedFlat {
  flat_id: number;
  building_id: number;
  publication_id: number | null;
  version: number | null;
  published_at: string | null;
  published_by: string | null;
}

/**
 * The flats of a selection with their building's latest publication of the month, if any. Who
 * published it (an operator's user name) only for a caller who sees everything: the operators'
 * accounts are outside every other scope (docs/statements.md, "Publishing").
 */
export async function selectPublishedFlats(
  db: Queryable,
  month: string,
  selection: FlatSelection,
): Promise<PublishedFlat[]> {
  const byIds = !!selection.flatIds;
  const { rows } = await db.query<PublishedFlat>(
    `SELECT l.id AS flat_id, ${buildingIdOf('l')} AS building_id, p.id AS publication_id, p.version,
            iso(p.published_at) AS published_at,
            CASE WHEN $1::int[] IS NULL THEN u.username END AS published_by
       FROM location l
       LEFT JOIN LATERAL (
         SELECT * FROM statement_publication sp WHERE sp.month = $3::date AND sp.building_id = ${buildingIdOf('l')}
          ORDER BY sp.version DESC LIMIT 1) p ON true
       LEFT JOIN app_user u ON u.id = p.published_by
      WHERE l.level = ${LOCATION_LEVEL.flat} AND ${inScope('l', '$1')}
        AND ${byIds ? 'l.id = ANY ($2::int[])' : inScope('l', '$2')}`,
    [selection.scope, selection.flatIds ?? selection.parents, `${month}-01`],
  );
  return rows;
}

/** Flat ids in address order. */
export async function inAddressOrder(db: Queryable, flatIds: number[]): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT l.id FROM location l JOIN location b ON b.id = ${buildingIdOf('l')} WHERE l.id = ANY ($1::int[])
      ORDER BY ${flatOrder('b', 'l')}`,
    [flatIds],
  );
  return rows.map((r) => r.id);
}

/** The buildings of a selection that hold flats, in address order, with a name each. */
export async function selectionBuildings(
  db: Queryable,
  scope: number[] | null,
  parents: number[] | null,
): Promise<{ id: number; name: string }[]> {
  const { rows } = await db.query<{ id: number; name: string }>(
    `SELECT b.id, concat_ws(' ', b.city, b.street, b.building) AS name
       FROM location b
      WHERE b.level = ${LOCATION_LEVEL.building} AND EXISTS (
        SELECT FROM location f WHERE f.level = ${LOCATION_LEVEL.flat} AND ${buildingIdOf('f')} = b.id
           AND ${inScope('f', '$1')} AND ${inScope('f', '$2')})
      ORDER BY ${buildingOrder('b')}`,
    [scope, parents],
  );
  return rows;
}

/** The selection's flats of one building. */
export async function buildingFlatIds(
  db: Queryable,
  buildingId: number,
  scope: number[] | null,
  parents: number[] | null,
): Promise<number[]> {
  const { rows } = await db.query<{ id: number }>(
    `SELECT f.id FROM location f WHERE f.level = ${LOCATION_LEVEL.flat} AND ${buildingIdOf('f')} = $1
        AND ${inScope('f', '$2')} AND ${inScope('f', '$3')}`,
    [buildingId, scope, parents],
  );
  return rows.map((r) => r.id);
}

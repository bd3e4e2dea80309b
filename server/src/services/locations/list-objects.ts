import {
  ADDRESS_COLUMNS,
  type AddressFilter,
  LOCATION_LEVEL,
  LOCATIONS_PAGE_SIZE,
  type LocationRow,
  type TreeNode,
  type UserObjectRow,
} from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { paged } from '../paging.js';
import { buildingIdOf, buildingOrder, inScope, prefixPattern } from '../sql.js';
import { ANCESTORS_CTE, isVisible } from './visible.js';

const BUILDING_ORDER = buildingOrder('l');

/** Buildings in scope, each address part filtered by a case-insensitive prefix, one page. */
export async function listObjects(
  db: Queryable,
  scope: number[] | null,
  input: AddressFilter & { page?: number; pageSize?: number },
) {
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? LOCATIONS_PAGE_SIZE;
  const params: unknown[] = [scope];
  const conditions = [`l.level = ${LOCATION_LEVEL.building}`, isVisible('l', '$1')];
  // A building's own address: every level down to its own.
  for (const field of ADDRESS_COLUMNS.slice(0, LOCATION_LEVEL.building)) {
    const value = input[field]?.trim();
    if (!value) continue;
    params.push(prefixPattern(value));
    conditions.push(`lower(l.${field}) LIKE $${params.length}`);
  }
  if (input.flat?.trim()) {
    params.push(prefixPattern(input.flat));
    conditions.push(
      `EXISTS (SELECT 1 FROM location f WHERE f.parent_id = l.id AND lower(f.name) LIKE $${params.length})`,
    );
  }
  params.push(pageSize, (page - 1) * pageSize);
  const { rows } = await db.query<LocationRow & { total: number }>(
    `WITH ${ANCESTORS_CTE('$1')}
     SELECT l.id AS "Id", l.id AS "LocationId", l.country AS "Country", l.county AS "County", l.region AS "Region",
            l.city AS "City", l.street AS "Street", l.building AS "Building", NULL AS "Flat",
            o.code AS "ObjectCode", o.name AS "ObjectName", count(*) OVER () AS total
       FROM location l LEFT JOIN object o ON o.location_id = l.id
      WHERE ${conditions.join(' AND ')}
      ORDER BY ${BUILDING_ORDER}
      LIMIT $${params.length - 1} OFFSET $${params.length}`,
    params,
  );
  const total = rows[0]?.total ?? 0;
  return paged(
    rows.map(({ total: _, ...row }) => row),
    total,
    page,
    pageSize,
  );
}

/** Up to `limit` distinct visible names at a level starting with `search`, ignoring case. */
export async function suggestNames(db: Queryable, scope: number[] | null, level: number, search: string, limit = 10) {
  const { rows } = await db.query<{ name: string }>(
    `WITH ${ANCESTORS_CTE('$1')}
     SELECT min(l.name) AS name FROM location l
      WHERE l.level = $2 AND lower(l.name) LIKE $3 AND ${isVisible('l', '$1')}
      GROUP BY lower(l.name)
      ORDER BY lower(l.name)
      LIMIT $4`,
    [scope, level, prefixPattern(search), limit],
  );
  return rows.map((r) => r.name);
}

/** Flats in scope with their object and client (the "My objects" table). */
export async function listUserObjects(
  db: Queryable,
  scope: number[] | null,
  input: { page?: number; pageSize?: number; locationId?: number },
) {
  const page = input.page ?? 1;
  const pageSize = input.pageSize ?? 10;
  const { rows } = await db.query<UserObjectRow & { total: number }>(
    `SELECT l.id AS "LocationId", l.flat AS "Flat", l.flat_order AS "FlatOrder", address_label(l) AS "Address",
            o.code AS "ObjectCode", o.name AS "ObjectName", o.type_code AS "ObjectTypeCode", o.type_name AS "ObjectTypeName",
            o.category_code AS "ObjectCategoryCode", o.category_name AS "ObjectCategoryName",
            c.code AS "ClientCode", c.name AS "ClientName", c.type_code AS "ClientTypeCode", c.type_name AS "ClientTypeName",
            c.category_code AS "ClientCategoryCode", c.category_name AS "ClientCategoryName",
            count(*) OVER () AS total
       FROM location l
       LEFT JOIN object o ON o.location_id = ${buildingIdOf('l')}
       LEFT JOIN client c ON c.id = l.client_id
      WHERE l.level = ${LOCATION_LEVEL.flat} AND ${inScope('l', '$1')} AND ($2::int IS NULL OR l.path && ARRAY[$2::int])
      ORDER BY ${BUILDING_ORDER}, l.flat_order, l.flat
      LIMIT $3 OFFSET $4`,
    [scope, input.locationId ?? null, pageSize, (page - 1) * pageSize],
  );
  return paged(
    rows.map(({ total: _, ...row }) => row),
    rows[0]?.total ?? 0,
    page,
    pageSize,
  );
}

/** The visible location tree down to `maxLevel`, parents before children. */
export async function locationTree(db: Queryable, scope: number[] | null, maxLevel: number): Promise<TreeNode[]> {
  const { rows } = await db.query<TreeNode>(
    `WITH ${ANCESTORS_CTE('$1')}
     SELECT l.id AS "Id", l.parent_id AS "ParentId", l.level AS "Level", l.name AS "Name", l.flat_order AS "FlatOrder"
       FROM location l
      WHERE l.level <= $2 AND ${isVisible('l', '$1')}
      ORDER BY l.level, building_number(l.name), l.flat_order, l.name`,
    [scope, maxLevel],
  );
  return rows;
}

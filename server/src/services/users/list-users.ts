import { GROUP, type getAllUsers, type ResponseOf, USERS_PAGE_SIZE, type User } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import type { Caller } from '../auth/caller.js';
import { paged } from '../paging.js';
import { escapeLike } from '../sql.js';
import { reachableAccountSql } from './account-scope.js';
import { USER_COLUMNS } from './user-row.js';

/**
 * The accounts kept besides the reach: `search` ($1) matches user name, first or last name
 * anywhere; `waiting` ($2) keeps the accounts waiting for access: active, group 2 or 3, no
 * location granted (a self-registered account).
 */
const FILTER = `($1::text IS NULL OR lower(u.username) LIKE $1 OR lower(u.first_name) LIKE $1 OR lower(u.last_name) LIKE $1)
  AND (NOT $2::boolean OR (u.active AND u.group_id <> ${GROUP.operator}
                           AND NOT EXISTS (SELECT 1 FROM location_right r WHERE r.user_id = u.id)))`;

/**
 * One page of the accounts the caller may reach (account-scope.ts: nobody else
 * is listed, not even read-only), by user name (the waiting ones newest first); see FILTER.
 */
export async function listUsers(
  db: Queryable,
  caller: Caller,
  input: { page?: number; pageSize?: number; search?: string; waiting?: boolean },
): Promise<ResponseOf<typeof getAllUsers>> {
  const pageSize = input.pageSize ?? USERS_PAGE_SIZE;
  const page = input.page ?? 1;
  const search = input.search?.trim() ? `%${escapeLike(input.search.trim().toLowerCase())}%` : null;
  const waiting = input.waiting === true;
  const params: unknown[] = [search, waiting, pageSize, (page - 1) * pageSize];
  const reach = reachableAccountSql(caller, params);
  const { rows } = await db.query<User & { total: number }>(
    `SELECT ${USER_COLUMNS}, count(*) OVER () AS total
       FROM app_user u
      WHERE ${FILTER}
        AND ${reach}
      ORDER BY ${waiting ? 'u.added DESC, u.id DESC' : 'lower(u.username)'}
      LIMIT $3 OFFSET $4`,
    params,
  );
  const total = rows[0]?.total ?? (page > 1 ? await countUsers(db, caller, search, waiting) : 0);
  return paged(
    rows.map(({ total: _, ...user }) => user),
    total,
    page,
    pageSize,
  );
}

async function countUsers(db: Queryable, caller: Caller, search: string | null, waiting: boolean): Promise<number> {
  const params: unknown[] = [search, waiting];
  const reach = reachableAccountSql(caller, params);
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM app_user u WHERE ${FILTER} AND ${reach}`,
    params,
  );
  return rows[0]!.n;
}

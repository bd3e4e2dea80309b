import type { getAllUsers, ResponseOf, User } from '@rodmenys/contract';
import { USERS_PAGE_SIZE } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import type { Caller } from '../auth/caller.js';
import { paged } from '../paging.js';
import { escapeLike } from '../sql.js';
import { reachableAccountSql } from './account-scope.js';
import { USER_COLUMNS } from './user-row.js';

/**
 * One page of the accounts the caller may reach (account-scope.ts: nobody else
 * is listed, not even read-only), by user name; `search` matches user name,
 * first or last name anywhere.
 */
export async function listUsers(
  db: Queryable,
  caller: Caller,
  input: { page?: number; pageSize?: number; search?: string },
): Promise<ResponseOf<typeof getAllUsers>> {
  const pageSize = input.pageSize ?? USERS_PAGE_SIZE;
  const page = input.page ?? 1;
  const search = input.search?.trim() ? `%${escapeLike(input.search.trim().toLowerCase())}%` : null;
  const params: unknown[] = [search, pageSize, (page - 1) * pageSize];
  const reach = reachableAccountSql(caller, params);
  const { rows } = await db.query<User & { total: number }>(
    `SELECT ${USER_COLUMNS}, count(*) OVER () AS total
       FROM app_user u
      WHERE ($1::text IS NULL OR lower(u.username) LIKE $1 OR lower(u.first_name) LIKE $1 OR lower(u.last_name) LIKE $1)
        AND ${reach}
      ORDER BY lower(u.username)
      LIMIT $2 OFFSET $3`,
    params,
  );
  const total = rows[0]?.total ?? (page > 1 ? await countUsers(db, caller, search) : 0);
  return paged(
    rows.map(({ total: _, ...user }) => user),
    total,
    page,
    pageSize,
  );
}

async function countUsers(db: Queryable, caller: Caller, search: string | null): Promise<number> {
  const params: unknown[] = [search];
  const reach = reachableAccountSql(caller, params);
  const { rows } = await db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM app_user u
      WHERE ($1::text IS NULL OR lower(u.username) LIKE $1 OR lower(u.first_name) LIKE $1 OR lower(u.last_name) LIKE $1)
        AND ${reach}`,
    params,
  );
  return rows[0]!.n;
}

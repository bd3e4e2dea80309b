import type { Queryable } from '../../db/db.js';
import { forbidden } from '../../errors.js';
import type { TokenClaims } from './tokens.js';

/**
 * The signed-in user behind a request. `scope` is what their data queries see:
 * null = every location (group 1), else the roots of the visible subtrees.
 */
export interface Caller {
  id: number;
  groupId: 1 | 2 | 3;
  username: string;
  scope: number[] | null;
  token: TokenClaims;
}

/**
 * Loads the caller named by a valid token; undefined when the account is gone,
 * deactivated, or the token was signed out. One query per request, so a
 * deleted or deactivated user's token stops working at once.
 */
export async function loadCaller(db: Queryable, claims: TokenClaims): Promise<Caller | undefined> {
  const { rows } = await db.query<{
    id: number;
    group_id: 1 | 2 | 3;
    username: string;
    rights: number[];
    revoked: boolean;
  }>(
    `SELECT u.id, u.group_id, u.username,
            coalesce((SELECT array_agg(location_id) FROM location_right WHERE user_id = u.id), '{}') AS rights,
            EXISTS (SELECT 1 FROM revoked_token WHERE jti = $2) AS revoked
       FROM app_user u
      WHERE u.id = $1 AND u.active`,
    [claims.userId, claims.jti],
  );
  const row = rows[0];
  if (!row || row.revoked) return undefined;
  return {
    id: row.id,
    groupId: row.group_id,
    username: row.username,
    scope: row.group_id === 1 ? null : row.rights,
    token: claims,
  };
}

/** Groups 1 and 2 manage users and may act for another userId. */
export const isManager = (caller: Caller) => caller.groupId === 1 || caller.groupId === 2;

/**
 * The scope a data query runs with when the client names a `userId`
 * (docs/domain.md §6): the caller's own, or for groups 1 and 2 another user's,
 * narrowed to what the caller may see.
 */
export async function scopeFor(db: Queryable, caller: Caller, userId: number | undefined): Promise<number[] | null> {
  if (userId === undefined || userId === caller.id) return caller.scope;
  if (!isManager(caller)) throw forbidden('You may only read your own data');
  const { rows } = await db.query<{ group_id: number; rights: number[] }>(
    `SELECT group_id, coalesce((SELECT array_agg(location_id) FROM location_right WHERE user_id = u.id), '{}') AS rights
       FROM app_user u WHERE id = $1`,
    [userId],
  );
  const target = rows[0];
  if (!target) return [];
  const targetScope = target.group_id === 1 ? null : target.rights;
  return intersectScopes(db, caller.scope, targetScope);
}

/** The locations visible under both scopes, as roots of subtrees. */
export async function intersectScopes(db: Queryable, a: number[] | null, b: number[] | null): Promise<number[] | null> {
  if (a === null) return b;
  if (b === null) return a;
  const { rows } = await db.query<{ id: number }>(
    `SELECT id FROM location WHERE id = ANY($1::int[]) AND path && $2::int[]
     UNION
     SELECT id FROM location WHERE id = ANY($2::int[]) AND path && $1::int[]`,
    [a, b],
  );
  return rows.map((r) => r.id);
}

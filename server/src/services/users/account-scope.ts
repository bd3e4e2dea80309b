import {
  canChangeGroups,
  canManageUsers,
  type ErrorCode,
  GROUP,
  seesEverything,
  type UpdateUserBody,
  type User,
} from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import type { Caller } from '../auth/caller.js';
import { USER_COLUMNS } from './user-row.js';

/*
 * Who may act on which account: the one place the rule of docs/security.md
 * ("Accounts") is written. Every users and rights endpoint goes through it.
 *
 * - Group 1 reaches every account.
 * - Group 2 reaches itself and every group 3 account whose rights lie entirely
 *   inside its own scope (an account without rights: yes). It never makes
 *   anyone group 1 or 2 and grants only locations inside its scope.
 * - Group 3 reaches only itself.
 *
 * An account out of reach answers 404 "User not found", exactly as one that does
 * not exist, so nothing about it is revealed. An action the caller's group may
 * not take at all (group 3 listing users) answers 403.
 */

export const USER_NOT_FOUND = 'userNotFound';

/** Whether the caller's group manages other accounts at all (group 1 or 2). */
export const managesAccounts = (caller: Caller): boolean => canManageUsers(caller.groupId);

/**
 * The SQL condition "app_user `u` is within the caller's reach"; appends its
 * parameters to `params` (a query's parameter list) and numbers them after it.
 */
export function reachableAccountSql(caller: Caller, params: unknown[]): string {
  if (seesEverything(caller.groupId)) return 'TRUE';
  params.push(caller.id);
  const self = `u.id = $${params.length}`;
  if (caller.groupId !== GROUP.admin) return self;
  params.push(caller.scope ?? []);
  const scope = `$${params.length}::int[]`;
  return `(${self} OR (u.group_id = ${GROUP.user} AND NOT EXISTS (
            SELECT 1 FROM location_right ur JOIN location ul ON ul.id = ur.location_id
             WHERE ur.user_id = u.id AND NOT (ul.path && ${scope}))))`;
}

/**
 * SQL: a back-office account's name where a record says who did something (created a campaign,
 * published, decided on a declaration, noted an exception, set a value…), as the caller may see it
 * (docs/security.md, "Names of accounts"): `name` (an expression over the account `user`, its
 * username by default) for group 1, who sees everything; for anyone else only their own, null for
 * every other account (an operator's above all: operators' accounts lie outside every other scope).
 * No caller (an occupant, a letter): null. The caller's id is written into the text (an integer).
 */
export function accountNameSql(
  caller: Pick<Caller, 'id' | 'groupId'> | null,
  user: string,
  name = `${user}.username`,
): string {
  if (caller && seesEverything(caller.groupId)) return name;
  if (!caller) return 'NULL::text';
  if (!Number.isSafeInteger(caller.id)) throw new Error(`caller id ${String(caller.id)} is not an integer`);
  return `CASE WHEN ${user}.id = ${caller.id} THEN ${name} END`;
}

/**
 * The SQL condition "location `l` lies inside the caller's scope" (its subtree
 * root is granted to the caller, or the caller is group 1); appends its parameter.
 */
export function locationInScopeSql(caller: Caller, alias: string, params: unknown[]): string {
  if (caller.scope === null) return 'TRUE';
  params.push(caller.scope);
  return `${alias}.path && $${params.length}::int[]`;
}

/** The account `id` if the caller may reach it; 404 otherwise (also when it does not exist). */
export async function findReachableAccount(db: Queryable, caller: Caller, id: number): Promise<User> {
  const params: unknown[] = [id];
  const { rows } = await db.query<User>(
    `SELECT ${USER_COLUMNS} FROM app_user u WHERE u.id = $1 AND ${reachableAccountSql(caller, params)}`,
    params,
  );
  if (!rows[0]) throw notFound(USER_NOT_FOUND);
  return rows[0];
}

/** 403 unless the caller's group manages accounts (listing, deleting, granting). */
export function assertManagesAccounts(caller: Caller, code: ErrorCode): void {
  if (!managesAccounts(caller)) throw forbidden(code);
}

/**
 * Checks a change to a reachable account: nobody changes their own group or
 * deactivates themselves; only group 1 gives or takes groups 1 and 2.
 */
export function assertMayChange(caller: Caller, target: User, input: UpdateUserBody): void {
  const self = target.Id === caller.id;
  if (input.groupId !== undefined && input.groupId !== target.GroupId) {
    if (self) throw forbidden('ownGroup');
    if (!canChangeGroups(caller.groupId)) {
      throw forbidden('operatorOrAdminByOperator');
    }
  }
  if (input.active !== undefined && input.active !== target.Active && self) {
    throw forbidden('deactivateSelf');
  }
}

/**
 * Checks locations the caller grants: each must exist and lie inside the
 * caller's scope; otherwise 400 naming `locationIds`, the same for both, so a
 * location outside the scope is not revealed.
 */
export async function assertMayGrant(db: Queryable, caller: Caller, locationIds: number[]): Promise<void> {
  const params: unknown[] = [locationIds];
  const { rows } = await db.query<{ id: number; inside: boolean }>(
    `SELECT l.id, ${locationInScopeSql(caller, 'l', params)} AS inside FROM location l WHERE l.id = ANY($1::int[])`,
    params,
  );
  const known = new Set(rows.map((r) => r.id));
  const unknown = locationIds.filter((id) => !known.has(id));
  // An id outside the scope is "unknown" too: its existence is not revealed.
  const outside = rows.filter((r) => !r.inside).map((r) => r.id);
  const bad = [...unknown, ...outside];
  if (bad.length) throw badRequest('unknownLocations', { ids: bad.slice(0, 20).join(', ') }, 'locationIds');
}

/**
 * The scope a data query runs with when the client names a `userId`: the
 * caller's own, or another account's that the caller may reach
 * (findReachableAccount below; else 404), narrowed to what the caller may see.
 */
export async function scopeFor(db: Queryable, caller: Caller, userId: number | undefined): Promise<number[] | null> {
  if (userId === undefined || userId === caller.id) return caller.scope;
  const target = await findReachableAccount(db, caller, userId);
  return intersectScopes(db, caller.scope, seesEverything(target.GroupId) ? null : await rightsOf(db, userId));
}

async function rightsOf(db: Queryable, userId: number): Promise<number[]> {
  const { rows } = await db.query<{ location_id: number }>(
    'SELECT location_id FROM location_right WHERE user_id = $1',
    [userId],
  );
  return rows.map((r) => r.location_id);
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

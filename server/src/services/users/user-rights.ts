import type { UserRight } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { inScope } from '../sql.js';
import { assertManagesAccounts, assertMayGrant, findReachableAccount, locationInScopeSql } from './account-scope.js';

/** A user's granted locations, only those inside the caller's scope (`caller` omitted: all). */
export async function listRights(db: Queryable, userId: number, caller?: Caller): Promise<UserRight[]> {
  const params: unknown[] = [userId];
  const inScope = caller ? locationInScopeSql(caller, 'l', params) : 'TRUE';
  const { rows } = await db.query<UserRight>(
    `SELECT l.id AS "LocationId", l.level AS "Level", address_label(l) AS "Path"
       FROM location_right r JOIN location l ON l.id = r.location_id
      WHERE r.user_id = $1 AND ${inScope}
      ORDER BY l.country, l.county NULLS FIRST, l.region NULLS FIRST, l.city NULLS FIRST,
               l.street NULLS FIRST, l.building NULLS FIRST, l.flat_order NULLS FIRST`,
    params,
  );
  return rows;
}

/** The rights of a reachable account (account-scope.ts), inside the caller's scope. */
export async function getRights(db: Queryable, caller: Caller, userId: number): Promise<UserRight[]> {
  await findReachableAccount(db, caller, userId);
  return listRights(db, userId, caller);
}

/**
 * Replaces a reachable account's granted locations in one transaction (groups 1
 * and 2; a group 2 manager grants only inside its own scope, account-scope.ts).
 */
export async function setRights(db: Db, caller: Caller, userId: number, locationIds: number[]): Promise<UserRight[]> {
  assertManagesAccounts(caller, 'grantRightsByManagers');
  return db.transaction(async (tx) => {
    const target = await findReachableAccount(tx, caller, userId);
    await assertMayGrant(tx, caller, locationIds);
    const before = await listRights(tx, userId);
    // A group 2 manager replaces only the grants inside its own scope.
    await tx.query(
      `DELETE FROM location_right r USING location l
        WHERE r.user_id = $1 AND l.id = r.location_id AND ${inScope('l', '$2')}`,
      [userId, caller.scope],
    );
    await tx.query(
      'INSERT INTO location_right (user_id, location_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [userId, locationIds],
    );
    await tx.query('UPDATE app_user SET updated = now() WHERE id = $1', [userId]);
    const after = await listRights(tx, userId);
    const answer = await listRights(tx, userId, caller);
    await recordAudit(tx, {
      actor: caller,
      kind: 'user.rights',
      entity: 'user',
      entityId: userId,
      before: { Username: target.Username, Rights: before.map((r) => r.Path) },
      after: { Username: target.Username, Rights: after.map((r) => r.Path) },
    });
    return answer;
  });
}

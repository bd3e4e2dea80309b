import type { UserRight } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, forbidden } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { assertCanManage } from './update-user.js';
import { findUser } from './user-row.js';

export async function listRights(db: Queryable, userId: number): Promise<UserRight[]> {
  const { rows } = await db.query<UserRight>(
    `SELECT l.id AS "LocationId", l.level AS "Level", address_label(l) AS "Path"
       FROM location_right r JOIN location l ON l.id = r.location_id
      WHERE r.user_id = $1
      ORDER BY l.country, l.county NULLS FIRST, l.region NULLS FIRST, l.city NULLS FIRST,
               l.street NULLS FIRST, l.building NULLS FIRST, l.flat_order NULLS FIRST`,
    [userId],
  );
  return rows;
}

export async function getRights(db: Queryable, caller: Caller, userId: number): Promise<UserRight[]> {
  assertCanManage(caller, await findUser(db, userId));
  return listRights(db, userId);
}

/**
 * Replaces a user's granted locations in one transaction. Managers only; a group 2
 * manager grants only inside its own scope and leaves outside grants as they are.
 */
export async function setRights(db: Db, caller: Caller, userId: number, locationIds: number[]): Promise<UserRight[]> {
  if (caller.groupId !== 1 && caller.groupId !== 2) throw forbidden('Only administrators may grant rights');
  const target = await findUser(db, userId);
  assertCanManage(caller, target);
  return db.transaction(async (tx) => {
    const { rows } = await tx.query<{ id: number; visible: boolean }>(
      `SELECT id, ($2::int[] IS NULL OR path && $2::int[]) AS visible FROM location WHERE id = ANY($1::int[])`,
      [locationIds, caller.scope],
    );
    const known = new Set(rows.map((r) => r.id));
    const unknown = locationIds.filter((id) => !known.has(id));
    if (unknown.length) throw badRequest(`Unknown location ids: ${unknown.slice(0, 20).join(', ')}`, 'locationIds');
    if (rows.some((r) => !r.visible)) throw forbidden('You may only grant locations you can see yourself');
    const before = await listRights(tx, userId);
    // A group 2 manager replaces only the grants inside its own scope.
    await tx.query(
      `DELETE FROM location_right r USING location l
        WHERE r.user_id = $1 AND l.id = r.location_id AND ($2::int[] IS NULL OR l.path && $2::int[])`,
      [userId, caller.scope],
    );
    await tx.query(
      'INSERT INTO location_right (user_id, location_id) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING',
      [userId, locationIds],
    );
    await tx.query('UPDATE app_user SET updated = now() WHERE id = $1', [userId]);
    const after = await listRights(tx, userId);
    await recordAudit(tx, {
      actor: caller,
      kind: 'user.rights',
      entity: 'user',
      entityId: userId,
      before: { Username: target.Username, Rights: before.map((r) => r.Path) },
      after: { Username: target.Username, Rights: after.map((r) => r.Path) },
    });
    return after;
  });
}

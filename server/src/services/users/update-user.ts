import type { UpdateUserBody, User } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import type { Caller } from '../auth/caller.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { assertManagesAccounts, assertMayChange, findReachableAccount } from './account-scope.js';
import { forgetSignInFailures } from './sign-in-throttle.js';
import { USER_COLUMNS } from './user-row.js';

/**
 * Changes an account: names, contacts, password; group and active flag for
 * managers (who may act on whom: account-scope.ts). A new password or a change
 * of the active flag ends every token of the account (docs/security.md); a new
 * password also clears the account's sign-in throttling.
 */
export async function updateUser(db: Db, caller: Caller, id: number, input: UpdateUserBody): Promise<User> {
  return db.transaction((tx) => updateUserIn(tx, caller, id, input));
}

async function updateUserIn(db: Queryable, caller: Caller, id: number, input: UpdateUserBody): Promise<User> {
  const target = await findReachableAccount(db, caller, id);
  assertMayChange(caller, target, input);
  const self = id === caller.id;
  let passwordHash: string | null = null;
  if (input.password !== undefined) {
    if (self) {
      const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM app_user WHERE id = $1', [
        id,
      ]);
      if (!input.currentPassword || !(await verifyPassword(input.currentPassword, rows[0]!.password_hash))) {
        throw badRequest('wrongCurrentPassword', {}, 'currentPassword');
      }
    }
    passwordHash = await hashPassword(input.password);
  }
  const trimmed = (s: string | undefined) => {
    if (s === undefined) return null;
    const t = s.trim();
    if (!t) throw badRequest('nameBlank');
    return t;
  };
  const contact = (s: string | null | undefined) => (s === undefined ? undefined : s?.trim() || null);
  const email = contact(input.email);
  const phone = contact(input.phone);
  const { rows } = await db.query<User>(
    `UPDATE app_user u SET
       first_name = coalesce($2, first_name),
       last_name = coalesce($3, last_name),
       email = CASE WHEN $4 THEN $5 ELSE email END,
       phone = CASE WHEN $6 THEN $7 ELSE phone END,
       password_hash = coalesce($8, password_hash),
       group_id = coalesce($9, group_id),
       active = coalesce($10, active),
       session_generation = session_generation + CASE WHEN $8::text IS NOT NULL OR active <> coalesce($10, active) THEN 1 ELSE 0 END,
       updated = now()
     WHERE id = $1
     RETURNING ${USER_COLUMNS}`,
    [
      id,
      trimmed(input.firstName),
      trimmed(input.lastName),
      email !== undefined,
      email ?? null,
      phone !== undefined,
      phone ?? null,
      passwordHash,
      input.groupId ?? null,
      input.active ?? null,
    ],
  );
  const after = rows[0]!;
  if (passwordHash) await forgetSignInFailures(db, after.Username);
  await recordAudit(db, {
    actor: caller,
    kind: 'user.update',
    entity: 'user',
    entityId: id,
    before: auditUser(target),
    after: { ...auditUser(after), ...(passwordHash ? { PasswordChanged: true } : {}) },
  });
  return after;
}

/** What the audit log keeps of an account: never the password hash, nor the sign-in times. */
export const auditUser = (u: User) => ({
  Username: u.Username,
  FirstName: u.FirstName,
  LastName: u.LastName,
  GroupId: u.GroupId,
  Email: u.Email,
  Phone: u.Phone,
  Active: u.Active,
});

/** Deletes an account; its tokens stop working at once (the caller check finds no user). */
export async function deleteUser(db: Db, caller: Caller, id: number): Promise<void> {
  if (id === caller.id) throw badRequest('deleteSelf');
  assertManagesAccounts(caller, 'deleteByManagers');
  await db.transaction(async (tx) => {
    const target = await findReachableAccount(tx, caller, id);
    await tx.query('DELETE FROM app_user WHERE id = $1', [id]);
    await recordAudit(tx, {
      actor: caller,
      kind: 'user.delete',
      entity: 'user',
      entityId: id,
      before: auditUser(target),
      after: null,
    });
  });
}

/** Ends every token of a reachable account at once (sign-out everywhere). */
export async function signOutEverywhere(db: Db, caller: Caller, id: number): Promise<void> {
  await db.transaction(async (tx) => {
    const target = await findReachableAccount(tx, caller, id);
    await tx.query('UPDATE app_user SET session_generation = session_generation + 1 WHERE id = $1', [id]);
    await recordAudit(tx, {
      actor: caller,
      kind: 'user.signOut',
      entity: 'user',
      entityId: id,
      before: null,
      after: { Username: target.Username },
    });
  });
}

import type { UpdateUserBody, User } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest, forbidden } from '../../errors.js';
import { recordAudit } from '../audit/record-audit.js';
import { type Caller, isManager } from '../auth/caller.js';
import { hashPassword, verifyPassword } from '../auth/password.js';
import { findUser, USER_COLUMNS } from './user-row.js';

/**
 * Checks that the caller may act on the target account: yourself, or a manager
 * (group 1 or 2); a group 2 manager never acts on a group 1 account.
 */
export function assertCanManage(caller: Caller, target: { Id: number; GroupId: number }): void {
  if (target.Id === caller.id) return;
  if (!isManager(caller)) throw forbidden('You may only change your own account');
  if (caller.groupId === 2 && target.GroupId === 1)
    throw forbidden('Only a provider operator may change an operator account');
}

/** Changes an account (docs/domain.md §6: names, contacts, password; group and active flag for managers). */
export async function updateUser(db: Db, caller: Caller, id: number, input: UpdateUserBody): Promise<User> {
  return db.transaction((tx) => updateUserIn(tx, caller, id, input));
}

async function updateUserIn(db: Queryable, caller: Caller, id: number, input: UpdateUserBody): Promise<User> {
  const target = await findUser(db, id);
  assertCanManage(caller, target);
  const self = id === caller.id;
  if (input.groupId !== undefined && input.groupId !== target.GroupId) {
    if (self) throw forbidden('You cannot change your own group');
    if (input.groupId === 1 && caller.groupId !== 1) throw forbidden('Only a provider operator may grant group 1');
  }
  if (input.active !== undefined && input.active !== target.Active && self) {
    throw forbidden('You cannot deactivate your own account');
  }
  let passwordHash: string | null = null;
  if (input.password !== undefined) {
    if (self) {
      const { rows } = await db.query<{ password_hash: string }>('SELECT password_hash FROM app_user WHERE id = $1', [
        id,
      ]);
      if (!input.currentPassword || !(await verifyPassword(input.currentPassword, rows[0]!.password_hash))) {
        throw badRequest('The current password is incorrect', 'currentPassword');
      }
    }
    passwordHash = await hashPassword(input.password);
  }
  const trimmed = (s: string | undefined) => {
    if (s === undefined) return null;
    const t = s.trim();
    if (!t) throw badRequest('A name cannot be blank');
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
  if (id === caller.id) throw badRequest('You cannot delete your own account');
  if (!isManager(caller)) throw forbidden('Only administrators may delete accounts');
  await db.transaction(async (tx) => {
    const target = await findUser(tx, id);
    assertCanManage(caller, target);
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

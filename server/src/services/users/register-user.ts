import { GROUP, type GroupId, type RegisterBody, type User } from '@rodmenys/contract';
import type { Db, Queryable } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import { type Actor, recordAudit } from '../audit/record-audit.js';
import { hashPassword } from '../auth/password.js';
import { auditUser } from './update-user.js';
import { USER_COLUMNS } from './user-row.js';

const clean = (s: string | null | undefined) => (s == null ? null : s.trim() || null);

/**
 * Creates an account in group 3: it sees nothing until rights are granted.
 * Recorded in the audit log with `actor` (default: the new account itself, a
 * self-registration), in one transaction with the insert (the password is
 * hashed before it, so the embedded database is not held meanwhile).
 */
export async function registerUser(
  db: Db | Queryable,
  input: RegisterBody,
  groupId: GroupId = GROUP.user,
  actor?: Actor,
): Promise<User> {
  const username = input.username.trim();
  const firstName = input.firstName.trim();
  const lastName = input.lastName.trim();
  if (!username) throw badRequest('required', {}, 'username');
  if (!firstName) throw badRequest('required', {}, 'firstName');
  if (!lastName) throw badRequest('required', {}, 'lastName');
  const passwordHash = await hashPassword(input.password);
  const trimmed = { ...input, username, firstName, lastName };
  if ('transaction' in db) return db.transaction((tx) => insertUser(tx, trimmed, passwordHash, groupId, actor));
  return insertUser(db, trimmed, passwordHash, groupId, actor);
}

/** Inserts the account (names already trimmed and checked) and records it. */
async function insertUser(
  db: Queryable,
  input: RegisterBody,
  passwordHash: string,
  groupId: GroupId,
  actor: Actor | undefined,
): Promise<User> {
  const { username } = input;
  // ON CONFLICT on the case-insensitive unique index: no race between check and insert.
  const { rows } = await db.query<User>(
    `WITH inserted AS (
       INSERT INTO app_user (username, password_hash, first_name, last_name, group_id, email, phone)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT ((lower(username))) DO NOTHING
       RETURNING *)
     SELECT ${USER_COLUMNS} FROM inserted u`,
    [username, passwordHash, input.firstName, input.lastName, groupId, clean(input.email), clean(input.phone)],
  );
  const user = rows[0];
  if (!user) throw badRequest('usernameTaken', { username }, 'username');
  await recordAudit(db, {
    actor: actor === undefined ? { id: user.Id, username: user.Username } : actor,
    kind: 'user.create',
    entity: 'user',
    entityId: user.Id,
    before: null,
    after: auditUser(user),
  });
  return user;
}

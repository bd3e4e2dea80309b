import type { RegisterBody, User } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import { hashPassword } from '../auth/password.js';
import { USER_COLUMNS } from './user-row.js';

const clean = (s: string | null | undefined) => (s == null ? null : s.trim() || null);

/** Creates an account in group 3: it sees nothing until rights are granted. */
export async function registerUser(db: Queryable, input: RegisterBody, groupId: 1 | 2 | 3 = 3): Promise<User> {
  const username = input.username.trim();
  const firstName = input.firstName.trim();
  const lastName = input.lastName.trim();
  if (!username) throw badRequest('username is required', 'username');
  if (!firstName) throw badRequest('firstName is required', 'firstName');
  if (!lastName) throw badRequest('lastName is required', 'lastName');
  const passwordHash = await hashPassword(input.password);
  // ON CONFLICT on the case-insensitive unique index: no race between check and insert.
  const { rows } = await db.query<User>(
    `WITH inserted AS (
       INSERT INTO app_user (username, password_hash, first_name, last_name, group_id, email, phone)
       VALUES ($1, $2, $3, $4, $5, $6, $7)
       ON CONFLICT ((lower(username))) DO NOTHING
       RETURNING *)
     SELECT ${USER_COLUMNS} FROM inserted u`,
    [username, passwordHash, firstName, lastName, groupId, clean(input.email), clean(input.phone)],
  );
  if (!rows[0]) throw badRequest(`The user name "${username}" is already taken`, 'username');
  return rows[0];
}

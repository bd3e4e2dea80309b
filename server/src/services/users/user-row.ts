import type { User } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { notFound } from '../../errors.js';

/** The SELECT list that turns an app_user row into the contract's User. */
export const USER_COLUMNS = `u.id AS "Id", u.username AS "Username", u.first_name AS "FirstName",
  u.last_name AS "LastName", u.group_id AS "GroupId", u.email AS "Email", u.phone AS "Phone",
  u.active AS "Active", iso(u.added) AS "Added", iso(u.updated) AS "Updated", iso(u.signed_in) AS "SignedIn"`;

export async function findUser(db: Queryable, id: number): Promise<User> {
  const { rows } = await db.query<User>(`SELECT ${USER_COLUMNS} FROM app_user u WHERE u.id = $1`, [id]);
  if (!rows[0]) throw notFound('userNotFound');
  return rows[0];
}

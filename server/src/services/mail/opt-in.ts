import type { ErrorCode } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { badRequest } from '../../errors.js';
import type { MailLanguage } from './language.js';

/**
 * A mail a user opts into on their profile: a boolean column of `app_user`, the error when
 * there is no e-mail address to send to, and what else changes when they opt in. The
 * recipient's language is the profile's `language`, shared by every mail.
 */
export interface OptIn {
  /** The `app_user` column (a constant of the code, never input). */
  column: string;
  /** 400 naming `optIn` when opting in without an e-mail address. */
  emailRequired: ErrorCode;
  /** More `app_user` columns to answer with (`expr AS "Name"`, comma first). */
  extraColumns?: string;
  /** More assignments when the user opts in now (`$2` is the new choice): `digest_sent_at = …`. */
  onChange?: string;
}

/** The opt-in as the profile page shows it: chosen or not, the language, the e-mail address. */
export interface OptInState {
  OptIn: boolean;
  Language: MailLanguage;
  Email: string | null;
}

export async function readOptIn<T extends OptInState>(db: Queryable, optIn: OptIn, userId: number): Promise<T> {
  const { rows } = await db.query<T>(
    `SELECT ${optIn.column} AS "OptIn", language AS "Language", email AS "Email"${optIn.extraColumns ?? ''}
       FROM app_user WHERE id = $1`,
    [userId],
  );
  return rows[0]!;
}

/** Opts in or out and sets the mail language; opting in needs an e-mail address on the profile. */
export async function writeOptIn(
  db: Queryable,
  optIn: OptIn,
  userId: number,
  body: { optIn: boolean; language: MailLanguage },
): Promise<void> {
  const { rows } = await db.query<{ email: string | null }>('SELECT email FROM app_user WHERE id = $1', [userId]);
  if (body.optIn && !rows[0]?.email) throw badRequest(optIn.emailRequired, {}, 'optIn');
  await db.query(
    `UPDATE app_user SET ${optIn.onChange ? `${optIn.onChange}, ` : ''}${optIn.column} = $2, language = $3 WHERE id = $1`,
    [userId, body.optIn, body.language],
  );
}

/** The opted-in active users with an e-mail address, in id order, with their mail language. */
export async function optedIn<T extends object = object>(
  db: Queryable,
  optIn: OptIn,
  extraColumns = '',
  params: unknown[] = [],
): Promise<({ id: number; email: string; language: MailLanguage } & T)[]> {
  const { rows } = await db.query<{ id: number; email: string; language: MailLanguage } & T>(
    `SELECT u.id, u.email, CASE WHEN u.language = 'en' THEN 'en' ELSE 'lt' END AS language${extraColumns}
       FROM app_user u
      WHERE u.${optIn.column} AND u.active AND u.email IS NOT NULL
      ORDER BY u.id`,
    params,
  );
  return rows;
}

import { createHash, randomBytes, randomInt } from 'node:crypto';
import { LETTER_CODE_ALPHABET, LETTER_CODE_LENGTH } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import { hashPassword } from '../auth/password.js';

/*
 * An occupancy's secrets (docs/occupant-access.md): links for e-mail (several valid at once) and
 * one letter code for post. Only their hashes are stored; the raw value is returned once.
 */

/** Bytes of a link token: 256 bits, base64url (43 characters). */
const LINK_TOKEN_BYTES = 32;

/** SHA-256 of a link token or a session token: the value is random and long, so a fast hash suffices. */
export const hashToken = (token: string): Buffer => createHash('sha256').update(token).digest();

/**
 * Issues a new link token for the occupancy and returns it (the caller builds the URL with
 * occupantLinkUrl(PUBLIC_URL, token) of the contract). Earlier links stay valid.
 */
export async function issueLink(db: Queryable, occupancyId: number): Promise<string> {
  const token = randomBytes(LINK_TOKEN_BYTES).toString('base64url');
  await db.query('INSERT INTO occupant_link (occupancy_id, token_hash) VALUES ($1, $2)', [
    occupancyId,
    hashToken(token),
  ]);
  return token;
}

/** A random letter code: LETTER_CODE_LENGTH characters of LETTER_CODE_ALPHABET, uniformly chosen. */
export function newLetterCode(): string {
  let code = '';
  for (let i = 0; i < LETTER_CODE_LENGTH; i++) code += LETTER_CODE_ALPHABET[randomInt(LETTER_CODE_ALPHABET.length)];
  return code;
}

/**
 * A typed code as stored: upper case, spaces and hyphens dropped, O read as 0, I and L as 1
 * (Crockford's reading); null when it cannot be a code.
 */
export function normaliseLetterCode(typed: string): string | null {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  if (code.length !== LETTER_CODE_LENGTH) return null;
  for (const c of code) if (!LETTER_CODE_ALPHABET.includes(c)) return null;
  return code;
}

/**
 * Issues the occupancy's letter code and returns it (unformatted; formatLetterCode of the contract
 * prints it as ABCDE-FGHJK). The previous code, and the sessions opened with it, end.
 */
export async function issueLetterCode(db: Queryable, occupancyId: number): Promise<string> {
  const code = newLetterCode();
  const hash = await hashPassword(code);
  await db.query(
    `WITH old AS (UPDATE occupant_letter_code SET revoked_at = now()
                   WHERE occupancy_id = $1 AND revoked_at IS NULL RETURNING id),
          ended AS (UPDATE occupant_session SET ended_at = now()
                     WHERE code_id IN (SELECT id FROM old) AND ended_at IS NULL)
     SELECT count(*) FROM old`,
    [occupancyId],
  );
  await db.query('INSERT INTO occupant_letter_code (occupancy_id, code_hash) VALUES ($1, $2)', [occupancyId, hash]);
  return code;
}

/** Revokes every link and the letter code of the occupancy and ends its sessions; returns how many secrets. */
export async function revokeSecrets(db: Queryable, occupancyId: number): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH links AS (UPDATE occupant_link SET revoked_at = now() WHERE occupancy_id = $1 AND revoked_at IS NULL RETURNING 1),
          codes AS (UPDATE occupant_letter_code SET revoked_at = now() WHERE occupancy_id = $1 AND revoked_at IS NULL RETURNING 1),
          ended AS (UPDATE occupant_session SET ended_at = now() WHERE occupancy_id = $1 AND ended_at IS NULL)
     SELECT ((SELECT count(*) FROM links) + (SELECT count(*) FROM codes))::int AS n`,
    [occupancyId],
  );
  return rows[0]?.n ?? 0;
}

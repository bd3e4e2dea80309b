import { type GroupId, seesEverything } from '@rodmenys/contract';
import type { Queryable } from '../../db/db.js';
import type { TokenClaims } from './tokens.js';

/**
 * The signed-in user behind a request. `scope` is what their data queries see:
 * null = every location (group 1), else the roots of the visible subtrees.
 */
export interface Caller {
  id: number;
  groupId: GroupId;
  username: string;
  scope: number[] | null;
  token: TokenClaims;
  /** Set when the request came with an integration key (services/billing/integration-keys.ts), not a sign-in. */
  key?: { id: number; name: string };
}

/**
 * Loads the caller named by a valid token; undefined when the account is gone,
 * deactivated, the token was signed out, or it was issued under an older session
 * generation (password changed or reset, deactivated, signed out everywhere;
 * docs/security.md). One query per request, so all of these take effect at once.
 */
export async function loadCaller(db: Queryable, claims: TokenClaims): Promise<Caller | undefined> {
  const { rows } = await db.query<{
    id: number;
    group_id: GroupId;
    username: string;
    rights: number[];
    revoked: boolean;
  }>(
    `SELECT u.id, u.group_id, u.username,
            coalesce((SELECT array_agg(location_id) FROM location_right WHERE user_id = u.id), '{}') AS rights,
            EXISTS (SELECT 1 FROM revoked_token WHERE jti = $2) AS revoked
       FROM app_user u
      WHERE u.id = $1 AND u.active AND u.session_generation = $3`,
    [claims.userId, claims.jti, claims.generation],
  );
  const row = rows[0];
  if (!row || row.revoked) return undefined;
  return {
    id: row.id,
    groupId: row.group_id,
    username: row.username,
    scope: seesEverything(row.group_id) ? null : row.rights,
    token: claims,
  };
}

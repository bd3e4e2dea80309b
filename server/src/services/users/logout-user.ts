import type { Queryable } from '../../db/db.js';
import type { TokenClaims } from '../auth/tokens.js';

/** Signs a token out: it is refused from now on. Expired entries are swept at the same time. */
export async function logoutUser(db: Queryable, token: TokenClaims): Promise<void> {
  await db.query('DELETE FROM revoked_token WHERE expires_at < now()');
  await db.query('INSERT INTO revoked_token (jti, expires_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [
    token.jti,
    token.expiresAt,
  ]);
}

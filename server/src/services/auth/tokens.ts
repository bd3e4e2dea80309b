import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: number;
  jti: string;
  expiresAt: Date;
  /** The account's session generation when the token was issued (docs/security.md). */
  generation: number;
}

/**
 * A signed bearer token (HS256 JWT) naming the user, with an id (for sign-out), an
 * expiry and the account's session generation (a newer one ends it).
 */
export async function issueToken(
  secret: Uint8Array,
  userId: number,
  ttlSeconds: number,
  generation = 0,
): Promise<{ token: string; claims: TokenClaims }> {
  const jti = randomUUID();
  const expiresAt = new Date(Math.floor(Date.now() / 1000 + ttlSeconds) * 1000);
  const token = await new SignJWT({ gen: generation })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(userId))
    .setJti(jti)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .setIssuer('rodmenys')
    .sign(secret);
  return { token, claims: { userId, jti, expiresAt, generation } };
}

/** The claims of a valid token, or undefined for a forged, expired or malformed one. */
export async function readToken(secret: Uint8Array, token: string): Promise<TokenClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], issuer: 'rodmenys' });
    const userId = Number(payload.sub);
    const generation = payload.gen ?? 0;
    if (!Number.isInteger(userId) || !payload.jti || !payload.exp || !Number.isInteger(generation)) return undefined;
    return { userId, jti: payload.jti, expiresAt: new Date(payload.exp * 1000), generation: generation as number };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return undefined;
    throw err;
  }
}

import { randomUUID } from 'node:crypto';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  userId: number;
  jti: string;
  expiresAt: Date;
}

/** A signed bearer token (HS256 JWT) naming the user, with an id (for sign-out) and an expiry. */
export async function issueToken(
  secret: Uint8Array,
  userId: number,
  ttlSeconds: number,
): Promise<{ token: string; claims: TokenClaims }> {
  const jti = randomUUID();
  const expiresAt = new Date(Math.floor(Date.now() / 1000 + ttlSeconds) * 1000);
  const token = await new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(userId))
    .setJti(jti)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .setIssuer('rodmenys')
    .sign(secret);
  return { token, claims: { userId, jti, expiresAt } };
}

/** The claims of a valid token, or undefined for a forged, expired or malformed one. */
export async function readToken(secret: Uint8Array, token: string): Promise<TokenClaims | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], issuer: 'rodmenys' });
    const userId = Number(payload.sub);
    if (!Number.isInteger(userId) || !payload.jti || !payload.exp) return undefined;
    return { userId, jti: payload.jti, expiresAt: new Date(payload.exp * 1000) };
  } catch (err) {
    if (err instanceof joseErrors.JOSEError) return undefined;
    throw err;
  }
}

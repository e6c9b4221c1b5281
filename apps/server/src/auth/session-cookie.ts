import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Name and lifetime of the console session cookie (as the reference gateway). */
export const SESSION_COOKIE = 'session';
export const SESSION_MAX_AGE_SECONDS = 2_592_000;

/** What a session cookie proves: who, since when, and for which password. */
export interface SessionClaims {
  userId: number;
  issuedAt: number;
  /** Short digest of the password hash: changing the password ends every other session. */
  passwordStamp: string;
}

/** Digest of a password hash used to bind sessions to the current password. */
export function passwordStampOf(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('base64url').slice(0, 10);
}

/**
 * The stamp a session carries: the password's digest, and the user's session generation once it
 * is above 0 (raised when the user is disabled or deleted), so either change ends the session.
 */
export function sessionStampOf(passwordHash: string, generation: number): string {
  return passwordStampOf(generation === 0 ? passwordHash : `${passwordHash}#${generation}`);
}

function signature(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/**
 * Serializes and signs session claims: `userId.issuedAt.stamp.nonce.signature`. The random nonce
 * makes every login's cookie distinct, so logging one out (revocation by the cookie's digest)
 * never ends another made in the same second; cookies without it are still read.
 */
export function encodeSession(secret: string, claims: SessionClaims): string {
  const nonce = randomBytes(9).toString('base64url');
  const payload = `${claims.userId}.${claims.issuedAt}.${claims.passwordStamp}.${nonce}`;
  return `${payload}.${signature(secret, payload)}`;
}

/** Verifies the signature (timing-safe) and the age; undefined for anything invalid. */
export function decodeSession(
  secret: string,
  value: string | undefined,
  now = Date.now(),
): SessionClaims | undefined {
  if (!value || value.length > 200) return undefined;
  const lastDot = value.lastIndexOf('.');
  if (lastDot < 0) return undefined;
  const payload = value.slice(0, lastDot);
  const given = Buffer.from(value.slice(lastDot + 1));
  const expected = Buffer.from(signature(secret, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const [userIdText, issuedAtText, passwordStamp] = payload.split('.');
  const userId = Number(userIdText);
  const issuedAt = Number(issuedAtText);
  if (!Number.isSafeInteger(userId) || userId <= 0 || !Number.isSafeInteger(issuedAt) || !passwordStamp) {
    return undefined;
  }
  if (issuedAt + SESSION_MAX_AGE_SECONDS < Math.floor(now / 1000)) return undefined;
  return { userId, issuedAt, passwordStamp };
}

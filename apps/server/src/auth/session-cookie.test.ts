import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  decodeSession,
  encodeSession,
  passwordStampOf,
  SESSION_MAX_AGE_SECONDS,
  sessionStampOf,
} from './session-cookie.ts';

const secret = 'a-test-secret-of-enough-length';
const now = Date.UTC(2026, 0, 1);
const claims = { userId: 7, issuedAt: Math.floor(now / 1000), passwordStamp: passwordStampOf('$2b$10$hash') };

describe('session cookie', () => {
  it('round-trips signed claims', () => {
    expect(decodeSession(secret, encodeSession(secret, claims), now)).toEqual(claims);
  });
  it('refuses a tampered or foreign cookie', () => {
    const value = encodeSession(secret, claims);
    expect(decodeSession(secret, value.replace(/^7\./, '1.'), now)).toBeUndefined();
    expect(decodeSession('another-secret-of-enough-length', value, now)).toBeUndefined();
    expect(decodeSession(secret, 'garbage', now)).toBeUndefined();
    expect(decodeSession(secret, undefined, now)).toBeUndefined();
  });
  it('expires after the maximum age', () => {
    const value = encodeSession(secret, claims);
    expect(decodeSession(secret, value, now + (SESSION_MAX_AGE_SECONDS + 1) * 1000)).toBeUndefined();
  });
  it('changes the stamp when the password changes', () => {
    expect(passwordStampOf('$2b$10$a')).not.toBe(passwordStampOf('$2b$10$b'));
  });
  it('makes every cookie distinct, even for the same claims in the same second', () => {
    expect(encodeSession(secret, claims)).not.toBe(encodeSession(secret, claims));
  });
  it('still reads a cookie without a nonce', () => {
    const payload = `${claims.userId}.${claims.issuedAt}.${claims.passwordStamp}`;
    const signed = `${payload}.${createHmac('sha256', secret).update(payload).digest('base64url')}`;
    expect(decodeSession(secret, signed, now)).toEqual(claims);
  });
  it('keeps the plain password stamp at generation 0 and changes it with the generation', () => {
    expect(sessionStampOf('$2b$10$a', 0)).toBe(passwordStampOf('$2b$10$a'));
    expect(sessionStampOf('$2b$10$a', 1)).not.toBe(sessionStampOf('$2b$10$a', 0));
    expect(sessionStampOf('$2b$10$a', 2)).not.toBe(sessionStampOf('$2b$10$a', 1));
  });
});

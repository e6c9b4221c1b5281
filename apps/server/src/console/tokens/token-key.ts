import { randomBytes } from 'node:crypto';
import { TOKEN_KEY_PREFIX, TOKEN_NAME_SUFFIX_LENGTH } from '@switchyard/shared';

const ALPHANUMERIC = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Stored key length (the reference's char(48)); clients see `sk-` in front of it. */
export const TOKEN_KEY_LENGTH = 48;

/** `length` characters of [0-9a-zA-Z] from node:crypto, without modulo bias (rejection sampling). */
export function randomAlphanumeric(length: number): string {
  let result = '';
  // 248 = 4 × 62: bytes at or above it are dropped so every character is equally likely.
  while (result.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) result += ALPHANUMERIC[byte % 62];
      if (result.length === length) break;
    }
  }
  return result;
}

/** A new stored token key: 48 random alphanumerics, no prefix. */
export const generateTokenKey = (): string => randomAlphanumeric(TOKEN_KEY_LENGTH);

/** The name suffix of the extra tokens of a batch: `-` plus 6 random alphanumerics. */
export const tokenNameSuffix = (): string => `-${randomAlphanumeric(TOKEN_NAME_SUFFIX_LENGTH)}`;

/** The full key as clients use it. */
export const fullTokenKey = (key: string): string => `${TOKEN_KEY_PREFIX}${key}`;

/** A key search fragment without a leading `sk-` (the reference's Trim also ate s/k/- at both ends). */
export function stripKeyPrefix(text: string): string {
  const value = text.trim();
  return value.startsWith(TOKEN_KEY_PREFIX) ? value.slice(TOKEN_KEY_PREFIX.length) : value;
}

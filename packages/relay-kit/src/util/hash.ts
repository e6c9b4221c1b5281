import { createHash, createHmac } from 'node:crypto';

/** The SHA-256 digest (32 bytes) of `data` (strings are UTF-8 encoded). */
export function sha256(data: string | Uint8Array): Uint8Array {
  return createHash('sha256').update(data).digest();
}

/** HMAC-SHA256 of `data` under `key` (strings are UTF-8 encoded). */
export function hmacSha256(key: string | Uint8Array, data: string | Uint8Array): Uint8Array {
  return createHmac('sha256', key).update(data).digest();
}

/** Lowercase hexadecimal of bytes. */
export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

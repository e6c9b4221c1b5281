import { randomBytes } from 'node:crypto';

const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
let lastSecond = 0;
let secondPrefix = '';

/** Random alphanumeric string from a CSPRNG (rejection-free: 62 does not divide 256, bias is negligible here). */
export function randomAlphanumeric(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[bytes[i]! % ALPHABET.length];
  return out;
}

/** Request ids as the reference gateway forms them: yyyyMMddHHmmss + sub-second digits + 8 random characters. */
export function createRequestId(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    secondPrefix = new Date(now).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  }
  const subSecond =
    String(now % 1000).padStart(3, '0') + String(process.hrtime()[1] % 1_000_000).padStart(6, '0');
  return `${secondPrefix}${subSecond}${randomAlphanumeric(8)}`;
}

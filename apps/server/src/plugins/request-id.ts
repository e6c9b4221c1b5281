import { randomBytes, randomFillSync } from 'node:crypto';

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

/**
 * CSPRNG bytes for request ids, filled 4 KB at a time: one `randomFillSync` per 512 requests
 * instead of one per request (the per-call cost showed in relay profiles). Request ids are
 * identifiers, not secrets; credentials keep using {@link randomAlphanumeric}.
 */
const POOL_SIZE = 4096;
const pool = Buffer.allocUnsafe(POOL_SIZE);
let poolOffset = POOL_SIZE;

/** Request ids as the reference gateway forms them: yyyyMMddHHmmss + sub-second digits + 8 random characters. */
export function createRequestId(): string {
  const now = Date.now();
  const second = Math.floor(now / 1000);
  if (second !== lastSecond) {
    lastSecond = second;
    secondPrefix = new Date(now).toISOString().replace(/[-:T]/g, '').slice(0, 14);
  }
  if (poolOffset + 8 > POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let random = '';
  for (let i = 0; i < 8; i++) random += ALPHABET[pool[poolOffset + i]! % 62];
  poolOffset += 8;
  const millis = now % 1000;
  // Sub-millisecond digits from the monotonic clock (no array per call, as process.hrtime() makes).
  const micros = Math.floor(performance.now() * 1000) % 1_000_000;
  return `${secondPrefix}${millis < 10 ? '00' : millis < 100 ? '0' : ''}${millis}${String(micros).padStart(6, '0')}${random}`;
}

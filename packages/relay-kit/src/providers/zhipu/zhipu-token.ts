import { hmacSha256 } from '../../util/hash.js';

const encoder = new TextEncoder();

/** Lifetime of a Zhipu token. */
export const ZHIPU_TOKEN_TTL_MS = 24 * 60 * 60 * 1000;

function base64Url(value: string | Uint8Array): string {
  const bytes = typeof value === 'string' ? encoder.encode(value) : value;
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/**
 * The credential Zhipu's v4 API expects for a channel key. A key of the form `id.secret` becomes
 * an HS256 JWT (header `{"alg":"HS256","sign_type":"SIGN"}`, payload `{api_key: id, exp,
 * timestamp}` in milliseconds, signed with the secret); any other key is used as is (Zhipu
 * accepts plain API keys as bearer tokens too).
 */
export function createZhipuToken(key: string, nowMs: number = Date.now()): string {
  const dot = key.indexOf('.');
  if (dot <= 0 || dot === key.length - 1 || key.indexOf('.', dot + 1) !== -1) return key;
  const id = key.slice(0, dot);
  const secret = key.slice(dot + 1);
  const header = base64Url(JSON.stringify({ alg: 'HS256', sign_type: 'SIGN' }));
  const payload = base64Url(
    JSON.stringify({ api_key: id, exp: nowMs + ZHIPU_TOKEN_TTL_MS, timestamp: nowMs }),
  );
  const signature = base64Url(hmacSha256(encoder.encode(secret), encoder.encode(`${header}.${payload}`)));
  return `${header}.${payload}.${signature}`;
}

import { UpstreamError, upstreamErrorFromException } from '../../spec/upstream-error.js';
import { maskSensitive } from '../../util/mask-sensitive.js';
import type { VertexServiceAccount } from './vertex-credentials.js';

/** OAuth scope of Vertex AI calls. */
export const VERTEX_SCOPE = 'https://www.googleapis.com/auth/cloud-platform';
/** A cached token is replaced this long before it expires. */
const REFRESH_MARGIN_MS = 5 * 60 * 1000;
/** Distinct keys kept at most (one per Vertex channel in practice). */
const MAX_CACHED_TOKENS = 1000;
const encoder = new TextEncoder();

/** Exchanges service-account keys for OAuth access tokens, cached per key. */
export interface VertexTokenSource {
  /** A valid access token for `account`, from the cache or freshly exchanged through `fetch`. */
  getAccessToken(account: VertexServiceAccount, fetch: typeof globalThis.fetch): Promise<string>;
}

/**
 * Creates a token source: signs an RS256 JWT assertion (Web Crypto) for the `cloud-platform`
 * scope, exchanges it at the key's `token_uri` (`grant_type=jwt-bearer`) and caches the access
 * token until 5 minutes before it expires, keyed by a SHA-256 hash of the key (never the key
 * itself). Concurrent requests for the same key share one exchange. `now` is injectable for tests.
 */
export function createVertexTokenSource(now: () => number = Date.now): VertexTokenSource {
  const cache = new Map<string, { token: string; refreshAt: number }>();
  const pending = new Map<string, Promise<string>>();
  return {
    async getAccessToken(account, fetch) {
      const cacheKey = await sha256Hex(`${account.clientEmail}\n${account.privateKey}\n${account.tokenUri}`);
      const cached = cache.get(cacheKey);
      if (cached !== undefined && now() < cached.refreshAt) return cached.token;
      const running = pending.get(cacheKey);
      if (running !== undefined) return running;
      const exchange = (async () => {
        const { token, expiresInSeconds } = await exchangeToken(account, fetch, now());
        if (cache.size >= MAX_CACHED_TOKENS) cache.delete(cache.keys().next().value as string);
        cache.set(cacheKey, { token, refreshAt: now() + expiresInSeconds * 1000 - REFRESH_MARGIN_MS });
        return token;
      })();
      pending.set(cacheKey, exchange);
      try {
        return await exchange;
      } finally {
        pending.delete(cacheKey);
      }
    },
  };
}

/** Builds the signed JWT assertion of a service account (`iat` = `nowMs`, valid one hour). */
export async function createServiceAccountJwt(account: VertexServiceAccount, nowMs: number): Promise<string> {
  const issuedAt = Math.floor(nowMs / 1000);
  const header: Record<string, string> = { alg: 'RS256', typ: 'JWT' };
  if (account.privateKeyId !== undefined) header.kid = account.privateKeyId;
  const claims = {
    iss: account.clientEmail,
    scope: VERTEX_SCOPE,
    aud: account.tokenUri,
    iat: issuedAt,
    exp: issuedAt + 3600,
  };
  const signingInput = `${base64Url(encoder.encode(JSON.stringify(header)))}.${base64Url(encoder.encode(JSON.stringify(claims)))}`;
  let key: Awaited<ReturnType<typeof crypto.subtle.importKey>>;
  try {
    key = await crypto.subtle.importKey(
      'pkcs8',
      pemToDer(account.privateKey),
      { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' },
      false,
      ['sign'],
    );
  } catch {
    throw new UpstreamError({
      status: 0,
      code: 'channel:invalid_key',
      message: 'the Vertex AI service account "private_key" is not a valid RSA private key',
      retryable: true,
      channelFault: true,
    });
  }
  const signature = await crypto.subtle.sign('RSASSA-PKCS1-v1_5', key, encoder.encode(signingInput));
  return `${signingInput}.${base64Url(new Uint8Array(signature))}`;
}

async function exchangeToken(
  account: VertexServiceAccount,
  fetch: typeof globalThis.fetch,
  nowMs: number,
): Promise<{ token: string; expiresInSeconds: number }> {
  const assertion = await createServiceAccountJwt(account, nowMs);
  let response: Response;
  let text: string;
  try {
    response = await fetch(account.tokenUri, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
        assertion,
      }).toString(),
    });
    text = await response.text();
  } catch (error) {
    throw upstreamErrorFromException(error);
  }
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
  } catch {
    // Reported below.
  }
  const token = body.access_token;
  if (response.ok && typeof token === 'string' && token !== '') {
    const expiresIn = typeof body.expires_in === 'number' && body.expires_in > 0 ? body.expires_in : 3600;
    return { token, expiresInSeconds: expiresIn };
  }
  const reason = [body.error, body.error_description].filter((item) => typeof item === 'string').join(': ');
  const authFailure = response.status === 400 || response.status === 401 || response.status === 403;
  throw new UpstreamError({
    status: response.status,
    code: authFailure
      ? 'channel:invalid_key'
      : response.status >= 500
        ? 'upstream:server_error'
        : 'upstream:bad_response',
    message: maskSensitive(
      `Vertex AI token exchange failed (${response.status})${reason === '' ? '' : `: ${reason}`}`,
    ),
    retryable: true,
    channelFault: authFailure,
    rawBody: text,
  });
}

function pemToDer(pem: string): Uint8Array {
  const base64 = pem.replace(/-----(BEGIN|END) PRIVATE KEY-----/g, '').replace(/\s+/g, '');
  return new Uint8Array(Buffer.from(base64, 'base64'));
}

function base64Url(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString('base64url');
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', encoder.encode(text));
  return Buffer.from(digest).toString('hex');
}

import { createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { invalidRequest } from '../errors/gateway-error.ts';
import { randomAlphanumeric } from '../plugins/request-id.ts';
import { VERIFICATION_TTL_SECONDS } from './verification-service.ts';

/** Cookie binding an OAuth state to the browser that asked for it (and carrying its invite code). */
export const OAUTH_STATE_COOKIE = 'oauth_state';
const COOKIE_PATH = '/api/oauth';

/** The reference gateway's answer for a missing, unknown, foreign, expired or reused state. */
export const STATE_MISMATCH = 'state is empty or not same';

function sign(secret: string, payload: string): string {
  return createHmac('sha256', secret).update(`oauth_state:${payload}`).digest('base64url');
}

function readCookie(secret: string, value: string | undefined): { nonce: string; aff: string } | undefined {
  if (!value || value.length > 200) return undefined;
  const lastDot = value.lastIndexOf('.');
  if (lastDot < 0) return undefined;
  const payload = value.slice(0, lastDot);
  const given = Buffer.from(value.slice(lastDot + 1));
  const expected = Buffer.from(sign(secret, payload));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
  const [nonce = '', aff = ''] = payload.split('.');
  return nonce === '' ? undefined : { nonce, aff };
}

/**
 * GET /api/oauth/state: a random state, stored (hashed, single use, 10 minutes) against a nonce
 * kept in a signed HttpOnly cookie, so only this browser can complete the login it started.
 * `aff` (an invite code) rides in the same cookie and rewards the inviter on first login.
 */
export async function issueOAuthState(
  request: FastifyRequest,
  reply: FastifyReply,
  aff: string,
): Promise<string> {
  const { verifications, sessionSecret } = request.server.services;
  const nonce = randomAlphanumeric(24);
  const state = await verifications.issue('oauth_state', nonce);
  const payload = `${nonce}.${aff}`;
  reply.setCookie(OAUTH_STATE_COOKIE, `${payload}.${sign(sessionSecret, payload)}`, {
    path: COOKIE_PATH,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    maxAge: VERIFICATION_TTL_SECONDS.oauth_state,
  });
  return state;
}

/**
 * Checks and spends the state of a callback: it must be the one issued to this browser, unexpired
 * and unused. Returns the invite code remembered with it. Refuses with STATE_MISMATCH otherwise.
 */
export async function consumeOAuthState(
  request: FastifyRequest,
  reply: FastifyReply,
  state: string,
): Promise<{ aff: string }> {
  const { verifications, sessionSecret } = request.server.services;
  const cookie = readCookie(sessionSecret, request.cookies[OAUTH_STATE_COOKIE]);
  if (!cookie || state === '') throw invalidRequest(STATE_MISMATCH);
  const valid = await verifications.consume('oauth_state', cookie.nonce, state);
  reply.clearCookie(OAUTH_STATE_COOKIE, { path: COOKIE_PATH });
  if (!valid) throw invalidRequest(STATE_MISMATCH);
  return { aff: cookie.aff };
}

import type { IncomingHttpHeaders } from 'node:http';
import { ErrorCode, Role, UserStatus } from '@switchyard/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/repositories/user-repository.ts';
import { GatewayError, unauthorized } from '../errors/gateway-error.ts';
import { sessionOfCookie } from './login-session.ts';
import { SESSION_COOKIE } from './session-cookie.ts';

/** What the session checks use of a request: Fastify's and the relay lane's both have it. */
interface SessionRequest {
  readonly server: Pick<FastifyInstance, 'services'>;
  readonly headers: IncomingHttpHeaders;
  readonly cookies: { [name: string]: string | undefined };
  readonly query?: unknown;
  user: UserRow | null;
}

/** What the session checks use of a reply: Fastify's and the relay lane's both have it. */
interface SessionReply {
  clearCookie(name: string, options: { path: string }): unknown;
}

/** Clears the session cookie on the reply. */
export function clearSessionCookie(reply: SessionReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

function readAccessToken(request: SessionRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const token = header.startsWith('Bearer ') ? header.slice(7).trim() : header.trim();
  return token === '' ? undefined : token;
}

/**
 * Who is calling the console API: the session cookie, or else a system access token in the
 * Authorization header. The user row and the session's revocation state are read on every call,
 * so logouts, bans, demotions and password changes take effect at once on every node (the
 * reference trusts the cookie's copy for 30 days).
 */
export async function resolveConsoleUser(
  request: SessionRequest,
  reply?: SessionReply,
): Promise<{ user: UserRow; viaCookie: boolean } | null> {
  const { services } = request.server;
  const session = await sessionOfCookie(services, request.cookies[SESSION_COOKIE]);
  if (session?.valid) return { user: session.user, viaCookie: true };
  if (session) {
    // A revoked session: its cookie is cleared, and a disabled or deleted user is told why.
    if (reply) clearSessionCookie(reply);
    const { user } = session;
    if (user.deleted_at !== null || user.status !== UserStatus.Enabled)
      throw unauthorized(user.deleted_at !== null ? '用户已注销' : '用户已被封禁');
  }
  const { users } = services;
  const accessToken = readAccessToken(request);
  if (accessToken && accessToken.length <= 128) {
    const user = await users.findByAccessToken(accessToken);
    if (user) return { user, viaCookie: false };
    throw unauthorized('无权进行此操作，access token 无效');
  }
  return null;
}

/**
 * The New-Api-User header must name the signed-in user. A route that opts in with `userIdQuery`
 * also takes it from that query parameter when the header is absent: a download link cannot
 * send headers. The session cookie is SameSite=Strict, so a link on another site carries no
 * session either way.
 */
function checkUserHeader(request: SessionRequest, userId: number, userIdQuery: string | undefined): void {
  const header = request.headers['new-api-user'];
  let value = Array.isArray(header) ? header[0] : header;
  if ((value === undefined || value === '') && userIdQuery !== undefined) {
    const fromQuery = (request.query as Record<string, unknown> | undefined)?.[userIdQuery];
    if (typeof fromQuery === 'string') value = fromQuery;
  }
  if (value === undefined || value === '') throw unauthorized('无权进行此操作，未提供 New-Api-User');
  if (!/^\d+$/.test(value)) throw unauthorized('无权进行此操作，New-Api-User 格式错误');
  if (Number(value) !== userId) throw unauthorized('无权进行此操作，New-Api-User 与登录用户不匹配');
}

/**
 * Hook factory (use it as `onRequest`, so refusals come before body validation): requires a
 * logged-in, enabled user with at least `minimumRole`. With `sessionOnly`, a system access token
 * is not enough (the playground, as in the reference); with `userIdQuery`, the New-Api-User value
 * may come from that query parameter (downloads).
 */
export function requireRole(
  minimumRole: number,
  { sessionOnly = false, userIdQuery }: { sessionOnly?: boolean; userIdQuery?: string } = {},
) {
  return async function guard(request: SessionRequest, reply: SessionReply): Promise<void> {
    const resolved = await resolveConsoleUser(request, reply);
    if (!resolved) throw unauthorized('无权进行此操作，未登录且未提供 access token');
    if (sessionOnly && !resolved.viaCookie) throw unauthorized('无权进行此操作，该接口不支持 access token');
    const { user, viaCookie } = resolved;
    if (user.deleted_at !== null || user.status !== UserStatus.Enabled) {
      if (viaCookie) clearSessionCookie(reply);
      throw unauthorized(user.deleted_at !== null ? '用户已注销' : '用户已被封禁');
    }
    checkUserHeader(request, user.id, userIdQuery);
    if (user.role < minimumRole) {
      throw new GatewayError(ErrorCode.AuthForbidden, '无权进行此操作，权限不足', { status: 403 });
    }
    request.user = user;
  };
}

export const requireUser = requireRole(Role.Common);
export const requireAdmin = requireRole(Role.Admin);
export const requireRoot = requireRole(Role.Root);
export const requireSessionUser = requireRole(Role.Common, { sessionOnly: true });

/** The authenticated user of a guarded route. */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized('无权进行此操作，未登录且未提供 access token');
  return request.user;
}

import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppServices } from '../app-services.ts';
import type { UserRow } from '../db/repositories/user-repository.ts';
import {
  decodeSession,
  encodeSession,
  SESSION_COOKIE,
  SESSION_MAX_AGE_SECONDS,
  sessionStampOf,
} from './session-cookie.ts';

/** What a successful login answers in `data` (as the reference gateway). */
export interface LoginData {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  group: string;
}

/**
 * Sets a new session cookie for `userId`, signed for `passwordHash` and the user's current session
 * generation (a login, or the browser that just changed the password).
 */
export async function issueSessionCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  passwordHash: string,
): Promise<void> {
  const { sessionSecret, sessions } = request.server.services;
  const value = encodeSession(sessionSecret, {
    userId,
    issuedAt: Math.floor(Date.now() / 1000),
    passwordStamp: sessionStampOf(passwordHash, await sessions.generationOf(userId)),
  });
  reply.setCookie(SESSION_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
}

/** Sets the session cookie for a user who just proved who they are, and returns the login data. */
export async function startLoginSession(
  request: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
): Promise<LoginData> {
  await issueSessionCookie(request, reply, user.id, user.password);
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    group: user.group,
  };
}

/**
 * What a session cookie proves: `undefined` for no cookie, a bad signature, an expired one or an
 * unknown user; else the user and whether the session is still valid (not logged out, signed for
 * the user's current password and session generation, read from the database so every node
 * agrees).
 */
export async function sessionOfCookie(
  services: Pick<AppServices, 'users' | 'sessions' | 'sessionSecret'>,
  cookie: string | undefined,
): Promise<{ user: UserRow; valid: boolean } | undefined> {
  const claims = decodeSession(services.sessionSecret, cookie);
  if (!claims || cookie === undefined) return undefined;
  const [user, state] = await Promise.all([
    services.users.findById(claims.userId),
    services.sessions.stateOf(claims.userId, cookie),
  ]);
  if (!user) return undefined;
  const valid = !state.revoked && sessionStampOf(user.password, state.generation) === claims.passwordStamp;
  return { user, valid };
}

/** The user of a valid session cookie, if any (no header checks: for login-or-bind decisions). */
export async function sessionUserOf(request: FastifyRequest): Promise<UserRow | undefined> {
  const session = await sessionOfCookie(request.server.services, request.cookies[SESSION_COOKIE]);
  return session?.valid ? session.user : undefined;
}

/** Logs the request's session cookie out on every node (until it would have expired anyway). */
export async function revokeSessionCookie(request: FastifyRequest): Promise<void> {
  const { sessionSecret, sessions } = request.server.services;
  const cookie = request.cookies[SESSION_COOKIE];
  const claims = decodeSession(sessionSecret, cookie);
  if (!claims || cookie === undefined) return;
  await sessions.revoke(cookie, claims.issuedAt + SESSION_MAX_AGE_SECONDS);
}

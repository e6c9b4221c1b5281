import type { FastifyReply, FastifyRequest } from 'fastify';
import type { UserRow } from '../db/repositories/user-repository.ts';
import {
  decodeSession,
  encodeSession,
  passwordStampOf,
  SESSION_COOKIE,
  SESSION_MAX_AGE_SECONDS,
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

/** Sets the session cookie for a user who just proved who they are, and returns the login data. */
export function startLoginSession(request: FastifyRequest, reply: FastifyReply, user: UserRow): LoginData {
  const value = encodeSession(request.server.services.sessionSecret, {
    userId: user.id,
    issuedAt: Math.floor(Date.now() / 1000),
    passwordStamp: passwordStampOf(user.password),
  });
  reply.setCookie(SESSION_COOKIE, value, {
    path: '/',
    httpOnly: true,
    sameSite: 'strict',
    secure: request.protocol === 'https',
    maxAge: SESSION_MAX_AGE_SECONDS,
  });
  return {
    id: user.id,
    username: user.username,
    display_name: user.display_name,
    role: user.role,
    status: user.status,
    group: user.group,
  };
}

/** The user of a valid session cookie, if any (no header checks: for login-or-bind decisions). */
export async function sessionUserOf(request: FastifyRequest): Promise<UserRow | undefined> {
  const { users, sessionSecret } = request.server.services;
  const claims = decodeSession(sessionSecret, request.cookies[SESSION_COOKIE]);
  if (!claims) return undefined;
  const user = await users.findById(claims.userId);
  return user && passwordStampOf(user.password) === claims.passwordStamp ? user : undefined;
}

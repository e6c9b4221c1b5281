import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  createUser,
  expectOk,
  expectRefused,
  NO_PERMISSION,
  ROOT_PASSWORD,
  uniqueName,
} from '../console/console-support.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { ACCESS_TABLE, type AccessRule, ruleOf } from './access-table.ts';
import { concreteUrl, type RegisteredRoute, registeredRoutes } from './route-collector.ts';

// Records every route of the app through an onRoute hook added before any route exists.
vi.mock('fastify', async (importOriginal) =>
  (await import('./route-collector.ts')).wrapFastify(await importOriginal()),
);

type Role = 'anonymous' | 'user' | 'admin' | 'root';
const ROLES: Role[] = ['anonymous', 'user', 'admin', 'root'];
const STANDARD_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ROLE_NUMBER = { user: 1, admin: 10, root: 100 } as const;
const NOT_SIGNED_IN = '无权进行此操作，未登录且未提供 access token';
/** Every message a console guard answers with: an allowed caller never sees one of these. */
const GUARD_MESSAGES = new Set([NOT_SIGNED_IN, NO_PERMISSION, '无权进行此操作，该接口不支持 access token']);

function jsonOf(response: LightMyRequestResponse): Record<string, unknown> | null {
  try {
    return response.json();
  } catch {
    return null;
  }
}

/** The guard let the caller through: no 401/403, no guard message, no server error. */
function expectAllowed(response: LightMyRequestResponse, label: string) {
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).not.toBe(401);
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).not.toBe(403);
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  const message = jsonOf(response)?.message;
  expect(GUARD_MESSAGES.has(String(message)), `${label}: ${message}`).toBe(false);
}

/**
 * A relay refusal in the caller's protocol: 401 with a message where that protocol puts it
 * (`error.message` for OpenAI, Claude and Gemini; `description` for midjourney-proxy).
 */
function expectRelayUnauthorized(response: LightMyRequestResponse, label: string) {
  expect(response.statusCode, `${label}: ${response.body.slice(0, 300)}`).toBe(401);
  const body = jsonOf(response);
  const error = body?.error as { message?: unknown } | undefined;
  const message = error?.message ?? body?.description ?? body?.message;
  expect(typeof message, `${label}: ${response.body.slice(0, 300)}`).toBe('string');
  expect(body?.success, `${label}: not the console envelope`).not.toBe(false);
}

describe('authorization matrix: every route × {anonymous, user, admin, root}', () => {
  let t: TestApp;
  const clients = {} as Record<Role, ConsoleClient>;
  let root: ConsoleClient;
  let tokenKey = '';
  const passwords = new Map<string, string>();

  /** A fresh signed-in client of a role, for calls that change the caller for good. */
  const throwaway = async (role: Role): Promise<ConsoleClient> => {
    if (role === 'anonymous') return t.anonymous();
    // Root cannot be deleted; a fresh session of its own keeps logout from ending the shared one.
    if (role === 'root') return t.login('root', ROOT_PASSWORD);
    const name = uniqueName(role.slice(0, 3));
    await createUser(root, name, 'password123', ROLE_NUMBER[role]);
    return t.login(name, 'password123');
  };

  beforeAll(async () => {
    // Hundreds of calls from one address: the per-IP page-load limit would answer 429 to the
    // routes it covers (paths outside /api and /v1, e.g. /mj and /metrics) before their guards.
    t = await buildTestApp({ GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false' });
    root = await t.login('root', ROOT_PASSWORD);
    clients.anonymous = t.anonymous();
    clients.root = root;
    for (const role of ['user', 'admin'] as const) {
      const name = uniqueName(role);
      passwords.set(role, 'password123');
      await createUser(root, name, 'password123', ROLE_NUMBER[role]);
      clients[role] = await t.login(name, 'password123');
    }
    const [token] = expectOk(
      await clients.user.post('/api/token/', { name: 'matrix', remain_quota: 0, unlimited_quota: true }),
    );
    tokenKey = String(token.key).startsWith('sk-') ? token.key : `sk-${token.key}`;
  });
  afterAll(async () => t?.close());

  it('has a row for every registered route and a registered route for every row', () => {
    const routes = registeredRoutes();
    const unlisted = routes.filter((route) => !ruleOf(route.key)).map((route) => route.key);
    expect(unlisted, 'routes missing from test/security/access-table.ts').toEqual([]);
    const keys = new Set(routes.map((route) => route.key));
    const stale = Object.keys(ACCESS_TABLE).filter((key) => !keys.has(key));
    expect(stale, 'rows of access-table.ts for routes that no longer exist').toEqual([]);
  });

  async function call(route: RegisteredRoute, client: ConsoleClient, headers: Record<string, string> = {}) {
    return client.request(route.method as never, concreteUrl(route.url), undefined, headers);
  }

  /** What checkRoute was checking when it failed (for the report). */
  let lastLabel = '';

  async function checkRoute(route: RegisteredRoute, rule: AccessRule) {
    for (const role of ROLES) {
      const label = `${route.key} as ${role}`;
      const client = rule.disposable ? await throwaway(role) : clients[role];
      const response = await call(route, client);
      lastLabel = label;
      if (route.method === 'HEAD') {
        // HEAD answers exactly like GET, without a body.
        const get = await call({ ...route, method: 'GET' }, client);
        expect(response.statusCode, label).toBe(get.statusCode);
        continue;
      }
      switch (rule.access) {
        case 'public':
          expectAllowed(response, label);
          break;
        case 'user':
        case 'admin':
        case 'root': {
          const needed = ROLE_NUMBER[rule.access];
          if (role === 'anonymous') expectRefused(response, NOT_SIGNED_IN, 401);
          else if (ROLE_NUMBER[role] < needed) expectRefused(response, NO_PERMISSION);
          else expectAllowed(response, label);
          break;
        }
        case 'session':
          if (role === 'anonymous') expectRelayUnauthorized(response, label);
          else expectAllowed(response, label);
          break;
        case 'token':
          // A console session is not a relay token, whatever the role.
          expectRelayUnauthorized(response, label);
          break;
        case 'token-key':
          expectRefused(response, '无效的令牌', 401);
          break;
        case 'not-implemented':
          // The token is checked first (as the reference does); sessions are not tokens.
          expectRelayUnauthorized(response, label);
          break;
      }
    }
    if (rule.access === 'not-implemented') {
      const response = await call(route, t.anonymous(), { authorization: `Bearer ${tokenKey}` });
      expect(response.statusCode, `${route.key} with a token`).toBe(501);
      if (route.method !== 'HEAD') {
        expect(jsonOf(response)?.error, route.key).toMatchObject({ code: 'api_not_implemented' });
      }
    }
    // The credentials those routes do accept.
    lastLabel = `${route.key} with its credentials`;
    if (rule.access === 'token' && route.method !== 'HEAD') {
      expectAllowed(
        await call(route, t.anonymous(), { authorization: `Bearer ${tokenKey}` }),
        `${route.key} with a token`,
      );
      const session = await call(route, root, { authorization: `Bearer ${tokenKey}` });
      expectAllowed(session, `${route.key} with a token and a root session`);
    }
    if (rule.access === 'token-key' && route.method !== 'HEAD') {
      expectOk(await call(route, t.anonymous(), { authorization: `Bearer ${tokenKey}` }));
    }
  }

  it('answers each route as its access rule says, for every role', async () => {
    // Methods beyond these (TRACE, QUERY, ... registered by `all`) are only required to be listed.
    const routes = registeredRoutes().filter(
      (route) => ruleOf(route.key) && STANDARD_METHODS.has(route.method),
    );
    expect(routes.length).toBeGreaterThan(100);
    const failures: string[] = [];
    for (const route of routes) {
      lastLabel = route.key;
      try {
        await checkRoute(route, ruleOf(route.key)!);
      } catch (error) {
        failures.push(`${lastLabel}: ${(error as Error).message.split('\n')[0]}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('refuses system access tokens of a lower role the same way as sessions', async () => {
    const token = expectOk(await clients.user.get('/api/user/token'));
    const viaToken = t.anonymous();
    viaToken.extraHeaders = { authorization: token, 'new-api-user': String(clients.user.userId) };
    expectOk(await viaToken.get('/api/user/self'));
    expectRefused(await viaToken.get('/api/user/'), NO_PERMISSION);
    expectRefused(await viaToken.get('/api/option/'), NO_PERMISSION);
    expectRelayUnauthorized(
      await viaToken.post('/pg/chat/completions', { model: 'x', messages: [] }),
      'playground with an access token',
    );
  });

  it('refuses a session whose New-Api-User header names someone else', async () => {
    const forged = await clients.admin.get('/api/user/', { 'new-api-user': String(root.userId) });
    expectRefused(forged, '无权进行此操作，New-Api-User 与登录用户不匹配', 401);
  });
});

import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createUser, expectOk, ROOT_PASSWORD } from '../console/console-support.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { ruleOf } from './access-table.ts';
import {
  type FuzzBody,
  fixedBodies,
  ODD_PATH_IDS,
  ODD_QUERIES,
  ROUTER_REFUSED_PATH_IDS,
  randomBodies,
} from './fuzz-inputs.ts';
import { concreteUrl, type RegisteredRoute, registeredRoutes } from './route-collector.ts';

// Records every route of the app through an onRoute hook added before any route exists.
vi.mock('fastify', async (importOriginal) =>
  (await import('./route-collector.ts')).wrapFastify(await importOriginal()),
);

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Statuses the console API keeps (AGENTS.md): everything else is HTTP 200 with success=false. */
const CONSOLE_STATUSES = new Set([200, 401, 404, 413, 415, 429]);
/** What the error handler says for an unexpected error (a 500 on relay routes). */
const INTERNAL_MESSAGE = '服务器内部错误，请联系管理员';
const API_BODY_LIMIT = 64 * 1024;
const RELAY_BODY_LIMIT = 128 * 1024;
const RANDOM_BODIES_PER_ROUTE = 24;
/** Console routes whose success is a file (a CSV download) rather than the envelope. */
const FILE_ROUTES = new Set(['/api/log/export']);

function jsonOf(response: LightMyRequestResponse): Record<string, unknown> | null {
  try {
    const body = response.json();
    return typeof body === 'object' && body !== null ? body : null;
  } catch {
    return null;
  }
}

/** `{success, message}`: success false always carries a message, with a status the API keeps. */
function expectConsoleEnvelope(response: LightMyRequestResponse) {
  expect(CONSOLE_STATUSES.has(response.statusCode), `status ${response.statusCode}`).toBe(true);
  const body = jsonOf(response);
  expect(body, 'a JSON object').not.toBeNull();
  expect(typeof body!.success).toBe('boolean');
  if (body!.success === false) {
    expect(typeof body!.message).toBe('string');
    expect((body!.message as string).length).toBeGreaterThan(0);
    // The API answers HTTP 200 even for internal errors: the message tells them apart.
    expect(body!.message, 'an internal error behind HTTP 200').not.toBe(INTERNAL_MESSAGE);
  }
}

function isCsv(response: LightMyRequestResponse): boolean {
  return (
    String(response.headers['content-type']).startsWith('text/csv') && response.body.startsWith('\uFEFF')
  );
}

/** A relay error in the caller's protocol; 5xx only for "not implemented" or "no channel". */
function expectRelayAnswer(response: LightMyRequestResponse) {
  if (response.statusCode < 400) return;
  const body = jsonOf(response);
  expect(body, 'a JSON error object').not.toBeNull();
  // OpenAI, Claude and Gemini nest the message in `error`; midjourney-proxy answers `description`
  // (or, for the image proxy, `{"error": "midjourney_task_not_found"}` as the reference does).
  const error = (typeof body!.error === 'string' ? { message: body!.error } : body!.error) as
    | { message?: unknown; code?: unknown }
    | undefined;
  const message = error?.message ?? body!.description ?? body!.message;
  expect(typeof message, 'an error message').toBe('string');
  expect(body!.success, 'not the console envelope').not.toBe(false);
  if (response.statusCode >= 500) {
    expect([501, 503], 'a 5xx other than not-implemented or no-channel').toContain(response.statusCode);
    expect(error?.code ?? body!.code).not.toBe('internal:error');
  }
}

function expectEpayAnswer(response: LightMyRequestResponse) {
  expect(response.statusCode).toBe(200);
  expect(['success', 'fail']).toContain(response.body);
}

describe('malformed bodies: every write route, as root, never answers 500', () => {
  let t: TestApp;
  /** Root through its system access token: survives fuzzed password or username changes. */
  let root: ConsoleClient;
  /** Root's session: reads the fresh access token after the query fuzz regenerated it. */
  let rootSession: ConsoleClient;
  /** An admin session, for the playground (sessions only). */
  let admin: ConsoleClient;
  let tokenKey = '';

  beforeAll(async () => {
    t = await buildTestApp({
      GLOBAL_WEB_RATE_LIMIT_ENABLE: 'false',
      API_BODY_LIMIT: String(API_BODY_LIMIT),
      RELAY_BODY_LIMIT: String(RELAY_BODY_LIMIT),
    });
    const session = await t.login('root', ROOT_PASSWORD);
    rootSession = session;
    root = t.anonymous();
    await refreshRootToken();
    await createUser(session, 'fuzzadmin', 'password123', 10);
    admin = await t.login('fuzzadmin', 'password123');
    const [token] = expectOk(await admin.post('/api/token/', { name: 'fuzz', unlimited_quota: true }));
    tokenKey = String(token.key).startsWith('sk-') ? token.key : `sk-${token.key}`;
  });
  afterAll(async () => t?.close());

  /** Root's system access token, (re)issued through its session. */
  async function refreshRootToken() {
    const accessToken = expectOk(await rootSession.get('/api/user/token'));
    root.extraHeaders = { authorization: accessToken, 'new-api-user': String(rootSession.userId) };
  }

  function send(route: RegisteredRoute, url: string, body: FuzzBody) {
    const headers: Record<string, string> = {};
    if (body.contentType) headers['content-type'] = body.contentType;
    const access = ruleOf(route.key)?.access;
    if (access === 'session') return admin.request(route.method as never, url, body.payload, headers);
    if (access === 'token' || access === 'not-implemented') {
      return t.app.inject({
        method: route.method as never,
        url,
        payload: body.payload,
        headers: { ...headers, authorization: `Bearer ${tokenKey}` },
      });
    }
    return root.request(route.method as never, url, body.payload, headers);
  }

  function check(route: RegisteredRoute, response: LightMyRequestResponse) {
    expect(response.statusCode).not.toBe(500);
    if (route.url === '/api/user/epay/notify') expectEpayAnswer(response);
    else if (FILE_ROUTES.has(route.url) && response.statusCode === 200 && isCsv(response)) return;
    else if (route.url.startsWith('/api/')) expectConsoleEnvelope(response);
    else expectRelayAnswer(response);
  }

  // First: it runs as root's session, before fuzzed bodies may change root's password.
  it('answers odd query strings on every GET route with a clean refusal', async () => {
    const routes = registeredRoutes().filter(
      (route) => route.method === 'GET' && ruleOf(route.key) && !/\.[a-z0-9]+$/i.test(route.url),
    );
    expect(routes.length).toBeGreaterThan(60);
    const failures: string[] = [];
    for (const route of routes) {
      for (const query of ODD_QUERIES) {
        const url = `${concreteUrl(route.url)}${query}`;
        const rule = ruleOf(route.key);
        const access = rule?.access;
        // A call that ends the caller's session (logout) gets a session of its own.
        const session = rule?.disposable ? await t.login('root', ROOT_PASSWORD) : rootSession;
        const response =
          access === 'token' || access === 'not-implemented' || access === 'token-key'
            ? await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tokenKey}` } })
            : await session.get(url);
        try {
          check(route, response);
        } catch (error) {
          const detail = `${response.statusCode} ${response.body.slice(0, 160)}`;
          failures.push(
            `${route.key} [${query.slice(0, 30)}]: ${(error as Error).message.split('\n')[0]} — ${detail}`,
          );
        }
      }
    }
    await refreshRootToken();
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers every malformed body with a clean refusal in the route family’s shape', async () => {
    // Relay routes first: fuzzed console calls as root may disable or delete the token's owner
    // (random small ids hit real users), after which the relay would stop at authentication.
    const routes = registeredRoutes()
      .filter((route) => WRITE_METHODS.has(route.method))
      .sort((a, b) => Number(a.url.startsWith('/api/')) - Number(b.url.startsWith('/api/')));
    expect(routes.length).toBeGreaterThan(40);
    const failures: string[] = [];
    const overLimit = Math.max(API_BODY_LIMIT, RELAY_BODY_LIMIT) + 1024;
    for (const route of routes) {
      const bodies = [...fixedBodies(overLimit), ...randomBodies(route.key, RANDOM_BODIES_PER_ROUTE)];
      for (const body of bodies) {
        const response = await send(route, concreteUrl(route.url), body);
        try {
          check(route, response);
        } catch (error) {
          const detail = `${response.statusCode} ${response.body.slice(0, 160)}`;
          failures.push(
            `${route.key} [${body.name}]: ${(error as Error).message.split('\n')[0]} — ${detail}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);

  it('answers odd path ids with a clean refusal', async () => {
    const routes = registeredRoutes().filter((route) => route.url.includes(':id') && route.method !== 'HEAD');
    expect(routes.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const route of routes) {
      for (const id of ODD_PATH_IDS) {
        const body: FuzzBody = {
          name: `id ${id.slice(0, 12)}`,
          payload: '{}',
          contentType: 'application/json',
        };
        const hasBody = WRITE_METHODS.has(route.method);
        const response = await send(route, concreteUrl(route.url, id), hasBody ? body : { name: body.name });
        try {
          check(route, response);
        } catch (error) {
          const detail = `${response.statusCode} ${response.body.slice(0, 160)}`;
          failures.push(
            `${route.key} [${body.name}]: ${(error as Error).message.split('\n')[0]} — ${detail}`,
          );
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);

  it('refuses path parameters the router cannot decode in the route family envelope, never a 500', async () => {
    // Answered through `frameworkErrors` (bad escapes) or the router (over-long parameters).
    const routes = registeredRoutes().filter((route) => route.url.includes(':id') && route.method !== 'HEAD');
    for (const route of routes) {
      for (const id of ROUTER_REFUSED_PATH_IDS) {
        const response = await send(route, concreteUrl(route.url, id), { name: 'no body' });
        const label = `${route.key} [id ${id.slice(0, 12)}]: ${response.body.slice(0, 160)}`;
        expect(response.statusCode, label).toBeLessThan(500);
        const body = jsonOf(response);
        if (route.url.startsWith('/api/') && response.statusCode !== 414) {
          expect(body, label).toMatchObject({ success: false, message: expect.any(String) });
        } else {
          expect(response.statusCode, label).toBeGreaterThanOrEqual(400);
          const message = body?.message ?? (body?.error as { message?: unknown } | undefined)?.message;
          expect(typeof message, label).toBe('string');
        }
      }
    }
  });
});

import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { createUser, expectOk, ROOT_PASSWORD, readOption } from './console-support.ts';

/**
 * Bad input on every console route: each POST/PUT route gets every kind of bad body, each path
 * and query gets bad ids and values. Every answer must be the {success:false, message} envelope
 * (HTTP 200, or 401/404/413/415 where the server keeps the status), never a 500 or a stack.
 */

let t: TestApp;
let root: ConsoleClient;
let targetId: number;

beforeAll(async () => {
  t = await buildTestApp();
  root = await t.login('root', ROOT_PASSWORD);
  targetId = await createUser(root, 'badinput');
});
afterAll(async () => t.close());

const KEPT_STATUSES = [200, 400, 401, 404, 413, 415];

/** The envelope of a refusal, with a clear message and no internals. */
function expectCleanRefusal(response: LightMyRequestResponse, label: string, statuses = [200]) {
  expect(statuses, `${label}: HTTP ${response.statusCode} ${response.body}`).toContain(response.statusCode);
  expect(KEPT_STATUSES).toContain(response.statusCode);
  expect(response.headers['content-type'], label).toMatch(/^application\/json/);
  const body = response.json();
  expect(Object.keys(body).sort(), `${label}: ${response.body}`).toEqual(['message', 'success']);
  expect(body.success, label).toBe(false);
  expect(typeof body.message).toBe('string');
  expect(body.message.length, label).toBeGreaterThan(0);
  expect(body.message, label).not.toMatch(/服务器内部错误|Internal Server Error/);
  expect(response.body, label).not.toMatch(/\bat .+\.(ts|js):\d+|node_modules|SQLITE_|ER_|syntax error at/);
  return body.message as string;
}

interface BodyRoute {
  method: 'POST' | 'PUT';
  url: string;
  anonymous?: boolean;
  /** A valid body, the base of the wrong-type variants (never sent as is). */
  valid?: Record<string, unknown>;
  /** Fields that must be present. */
  required?: string[];
  /** Wrong values per field, beyond the generic ones for its type. */
  wrong?: Record<string, unknown[]>;
  /** Text fields where null is read as '' (as Go's decoder does), so null is not a wrong type. */
  nullable?: string[];
}

const BODY_ROUTES: BodyRoute[] = [
  {
    method: 'POST',
    url: '/api/user/login',
    anonymous: true,
    valid: { username: 'root', password: ROOT_PASSWORD },
    required: ['username', 'password'],
  },
  {
    method: 'POST',
    url: '/api/user/register',
    anonymous: true,
    valid: { username: 'fresh1', password: 'password123', password2: 'password123', aff_code: 'x' },
    required: ['username', 'password'],
    nullable: ['username', 'password', 'password2', 'aff_code'],
  },
  {
    method: 'POST',
    url: '/api/user/reset',
    anonymous: true,
    valid: { email: 'a@example.com', token: 'abc' },
    required: ['email', 'token'],
  },
  { method: 'PUT', url: '/api/user/self', valid: { username: 'root', display_name: 'Root User' } },
  {
    method: 'POST',
    url: '/api/user/aff_transfer',
    valid: { quota: 500000 },
    required: ['quota'],
    wrong: { quota: [1.5, -1] },
  },
  {
    method: 'PUT',
    url: '/api/user/setting',
    valid: { notify_type: 'email', quota_warning_threshold: 100, notification_email: 'a@example.com' },
    required: ['notify_type', 'quota_warning_threshold'],
    wrong: { notify_type: ['sms'] },
  },
  {
    method: 'POST',
    url: '/api/user/',
    valid: { username: 'nevermade', password: 'password123', display_name: 'x', role: 1 },
    required: ['username', 'password'],
    wrong: { role: [1.5] },
  },
  {
    method: 'PUT',
    url: '/api/user/',
    valid: { id: 2, display_name: 'x', quota: 5, group: 'vip' },
    required: ['id'],
    wrong: { id: [1.5, 0, -3], quota: [1.5, 1e20] },
  },
  {
    method: 'POST',
    url: '/api/user/manage',
    valid: { id: 2, action: 'enable' },
    required: ['id', 'action'],
    wrong: { id: [1.5, 0], action: ['explode', ''] },
  },
  {
    method: 'PUT',
    url: '/api/option/',
    valid: { key: 'SystemName', value: 'x' },
    required: ['key'],
    wrong: { value: [['x'], { a: 1 }] },
  },
  { method: 'POST', url: '/api/option/rest_model_ratio' },
];

const GENERIC_WRONG: Record<string, unknown[]> = {
  string: [123, true, null, ['a'], { a: 'b' }],
  number: ['5', '', null, true, [], {}],
};

function wrongTypeBodies(route: BodyRoute): Array<[string, string, Record<string, unknown>]> {
  const bodies: Array<[string, string, Record<string, unknown>]> = [];
  for (const [field, value] of Object.entries(route.valid ?? {})) {
    const generic = (field === 'value' ? [] : (GENERIC_WRONG[typeof value] ?? [])).filter(
      (wrong) => wrong !== null || !route.nullable?.includes(field),
    );
    for (const wrong of [...generic, ...(route.wrong?.[field] ?? [])]) {
      bodies.push([field, `${field}=${JSON.stringify(wrong)}`, { ...route.valid, [field]: wrong }]);
    }
  }
  return bodies;
}

function send(route: BodyRoute, payload: string | Buffer | undefined, contentType?: string) {
  const client = route.anonymous ? t.anonymous() : root;
  return client.request(route.method, route.url, payload, contentType ? { 'content-type': contentType } : {});
}

describe.each(BODY_ROUTES)('$method $url', (route) => {
  it('refuses malformed JSON, poisoned JSON and an empty JSON body', async () => {
    const label = `${route.method} ${route.url}`;
    for (const text of ['{"username":', '{bad json}', '[1,2', '"unterminated', '{"a":1}}']) {
      expect(expectCleanRefusal(await send(route, text, 'application/json'), `${label} ${text}`)).toMatch(
        /JSON/,
      );
    }
    for (const text of ['{"__proto__":{"role":100}}', '{"constructor":{"prototype":{"role":100}}}']) {
      expectCleanRefusal(await send(route, text, 'application/json'), `${label} ${text}`);
    }
    expectCleanRefusal(await send(route, '', 'application/json'), `${label} empty`);
  });

  it('refuses a body over 1 MiB with 413 and other content types with 415', async () => {
    const label = `${route.method} ${route.url}`;
    const huge = JSON.stringify({ ...route.valid, filler: 'x'.repeat(1024 * 1024 + 10) });
    expect(expectCleanRefusal(await send(route, huge, 'application/json'), `${label} huge`, [413])).toBe(
      '请求体过大',
    );
    for (const type of [
      'application/xml',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      expectCleanRefusal(await send(route, '<a>1</a>', type), `${label} ${type}`, [415]);
    }
  });
});

describe.each(BODY_ROUTES.filter((route) => route.valid !== undefined))('$method $url schema', (route) => {
  it('refuses a missing body, a non-object body, a text/plain body and missing fields', async () => {
    const label = `${route.method} ${route.url}`;
    expectCleanRefusal(await send(route, undefined), `${label} no body`);
    for (const text of ['[]', '"text"', '42', 'null', 'true']) {
      expectCleanRefusal(await send(route, text, 'application/json'), `${label} ${text}`);
    }
    expectCleanRefusal(await send(route, JSON.stringify(route.valid), 'text/plain'), `${label} text/plain`);
    for (const field of route.required ?? []) {
      const { [field]: _omitted, ...rest } = route.valid!;
      const message = expectCleanRefusal(
        await send(route, JSON.stringify(rest), 'application/json'),
        `${label} -${field}`,
      );
      expect(message).toContain(field);
    }
    if (route.required?.length) {
      expectCleanRefusal(await send(route, '{}', 'application/json'), `${label} {}`);
    }
  });

  it('refuses every field with a wrong type', async () => {
    const bodies = wrongTypeBodies(route);
    expect(bodies.length).toBeGreaterThan(0);
    for (const [field, label, body] of bodies) {
      const response = await send(route, JSON.stringify(body), 'application/json');
      // The message names the offending field.
      expect(expectCleanRefusal(response, `${route.method} ${route.url} ${label}`)).toContain(field);
    }
  });
});

describe('bad ids and query values', () => {
  it.each([
    ['GET', '/api/user/abc'],
    ['GET', '/api/user/0'],
    ['GET', '/api/user/-1'],
    ['GET', '/api/user/1.5'],
    ['GET', '/api/user/99999999999'],
    ['GET', '/api/user/%00'],
    ['DELETE', '/api/user/abc'],
    ['DELETE', '/api/user/0'],
    ['GET', `/api/user/search?keyword=${'k'.repeat(300)}`],
    ['GET', `/api/user/search?group=${'g'.repeat(100)}`],
    ['DELETE', '/api/log/?target_timestamp=abc'],
    ['DELETE', '/api/log/?target_timestamp=1.5'],
    ['GET', `/api/verification?email=${'e'.repeat(300)}@example.com`],
    ['GET', '/api/verification?email=a@example.com&email=b@example.com'],
  ])('%s %s', async (method, url) => {
    expectCleanRefusal(await root.request(method as 'GET', url), `${method} ${url}`);
  });

  it('answers unknown user ids with 用户不存在', async () => {
    for (const response of [
      await root.get('/api/user/999999'),
      await root.delete('/api/user/999999'),
      await root.put('/api/user/', { id: 999999, display_name: 'x' }),
      await root.post('/api/user/manage', { id: 999999, action: 'disable' }),
      await root.post('/api/user/manage', { id: 2_147_483_647, action: 'enable' }),
    ]) {
      expect(expectCleanRefusal(response, 'unknown id')).toBe('用户不存在');
    }
  });

  it('answers unknown /api paths with a 404 envelope', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/user/self'],
      ['PATCH', '/api/user/'],
      ['GET', '/api/option/extra/segment'],
    ] as const) {
      expect(expectCleanRefusal(await root.request(method, url), url, [404])).toMatch(/Invalid URL/);
    }
  });

  it('survived all of it: nothing changed, the server still answers', async () => {
    expect(await readOption(root, 'SystemName')).toBe('Switchyard');
    expect(expectOk(await root.get(`/api/user/${targetId}`))).toMatchObject({
      username: 'badinput',
      status: 1,
      quota: 0,
    });
    expect(expectOk(await root.get('/api/user/self'))).toMatchObject({
      role: 100,
      status: 1,
      display_name: 'Root User',
    });
    expect(expectOk(await root.get('/api/user/search?keyword=nevermade')).total).toBe(0);
  });
});

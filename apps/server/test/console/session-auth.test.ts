import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, ConsoleClient, type TestApp } from '../helper.ts';
import {
  createUser,
  expectOk,
  expectRefused,
  ROOT_PASSWORD,
  sessionCookieOf,
  uniqueName,
} from './console-support.ts';

/** How a console caller is recognised: the session cookie, New-Api-User, access tokens. */

let t: TestApp;
let root: ConsoleClient;

beforeAll(async () => {
  t = await buildTestApp();
  root = await t.login('root', ROOT_PASSWORD);
});
afterAll(async () => t.close());

async function newUser(role = 1) {
  const username = uniqueName('sa');
  const id = await createUser(root, username, 'password123', role);
  return { id, username, client: await t.login(username, 'password123') };
}

describe('New-Api-User header', () => {
  it('is required and must equal the session user', async () => {
    const { id, client } = await newUser();
    expect(expectOk(await client.get('/api/user/self')).id).toBe(id);
    const withHeader = (value: string | null) =>
      new ConsoleClient(t.app, client.cookie, null, value === null ? {} : { 'new-api-user': value });
    expectRefused(await withHeader(null).get('/api/user/self'), /New-Api-User/, 401);
    expectRefused(await withHeader('').get('/api/user/self'), /New-Api-User/, 401);
    for (const bad of ['abc', '1.5', '-1', `${id}x`, ' ']) {
      expectRefused(await withHeader(bad).get('/api/user/self'), /New-Api-User/, 401);
    }
    expectRefused(await withHeader(String(id + 1000)).get('/api/user/self'), /不匹配/, 401);
    expectRefused(await withHeader('1').get('/api/user/self'), /不匹配/, 401);
    expect(expectOk(await withHeader(String(id)).get('/api/user/self')).id).toBe(id);
  });

  it('is checked on admin routes too', async () => {
    const { id, client } = await newUser(10);
    const wrong = new ConsoleClient(t.app, client.cookie, 1);
    expectRefused(await wrong.get('/api/user/'), undefined, 401);
    expect(
      expectOk(await new ConsoleClient(t.app, client.cookie, id).get('/api/user/')).total,
    ).toBeGreaterThan(0);
  });

  it('refuses a forged or foreign cookie', async () => {
    const { id, client } = await newUser();
    const [name, value] = client.cookie!.split('=') as [string, string];
    const forged = value.replace(/^\d+\./, '1.');
    expectRefused(
      await new ConsoleClient(t.app, `${name}=${forged}`, 1).get('/api/user/self'),
      undefined,
      401,
    );
    expectRefused(
      await new ConsoleClient(t.app, 'session=garbage', id).get('/api/user/self'),
      undefined,
      401,
    );
  });
});

describe('system access token', () => {
  it('works as Authorization with or without Bearer, without a cookie', async () => {
    const { id, client } = await newUser();
    const token = expectOk(await client.get('/api/user/token'));
    expect(token).toMatch(/^[A-Za-z0-9_-]{28,64}$/);
    for (const authorization of [token, `Bearer ${token}`]) {
      const viaToken = new ConsoleClient(t.app, null, id, { authorization });
      expect(expectOk(await viaToken.get('/api/user/self'))).toMatchObject({ id });
      expectOk(await viaToken.put('/api/user/setting', { notify_type: 'email', quota_warning_threshold: 1 }));
    }
    // The header rule still applies to token callers.
    expectRefused(
      await new ConsoleClient(t.app, null, null, { authorization: token }).get('/api/user/self'),
      undefined,
      401,
    );
    expectRefused(
      await new ConsoleClient(t.app, null, id + 1, { authorization: token }).get('/api/user/self'),
      undefined,
      401,
    );
    // The token is never shown back in the user view.
    expect(JSON.stringify(expectOk(await client.get('/api/user/self')))).not.toContain(token);
  });

  it('refuses unknown, regenerated and oversized tokens with 401', async () => {
    const { id, client } = await newUser();
    const first = expectOk(await client.get('/api/user/token'));
    const second = expectOk(await client.get('/api/user/token'));
    expect(second).not.toBe(first);
    const call = (authorization: string) =>
      new ConsoleClient(t.app, null, id, { authorization }).get('/api/user/self');
    expectRefused(await call(first), /access token/, 401);
    expectRefused(await call('Bearer not-a-real-token-at-all-000000'), /access token/, 401);
    expectRefused(await call('x'.repeat(5000)), undefined, 401);
    expectOk(await call(`Bearer ${second}`));
  });

  it('gives an admin token admin power and a user token none', async () => {
    const adminUser = await newUser(10);
    const user = await newUser();
    const adminToken = expectOk(await adminUser.client.get('/api/user/token'));
    const userToken = expectOk(await user.client.get('/api/user/token'));
    expectOk(
      await new ConsoleClient(t.app, null, adminUser.id, { authorization: adminToken }).get('/api/user/'),
    );
    expectRefused(
      await new ConsoleClient(t.app, null, user.id, { authorization: userToken }).get('/api/user/'),
      '无权进行此操作，权限不足',
    );
  });
});

describe('sessions end when the account changes', () => {
  it('stops a banned user at once, cookie and token alike, and lets them log in again when enabled', async () => {
    const { id, username, client } = await newUser();
    const token = expectOk(await client.get('/api/user/token'));
    expectOk(await root.post('/api/user/manage', { id, action: 'disable' }));
    const refused = expectRefused(await client.get('/api/user/self'), '用户已被封禁', 401);
    expect(refused).toBeDefined();
    expectRefused(
      await new ConsoleClient(t.app, null, id, { authorization: token }).get('/api/user/self'),
      undefined,
      401,
    );
    expectOk(await root.post('/api/user/manage', { id, action: 'enable' }));
    // Disabling ended the session for good: the old cookie stays refused, a new login works.
    expectRefused(await client.get('/api/user/self'), undefined, 401);
    expectOk(await (await t.login(username, 'password123')).get('/api/user/self'));
  });

  it('ends the sessions and the token of a deleted user', async () => {
    const { id, client } = await newUser();
    const token = expectOk(await client.get('/api/user/token'));
    expectOk(await root.delete(`/api/user/${id}`));
    expectRefused(await client.get('/api/user/self'), undefined, 401);
    expectRefused(
      await new ConsoleClient(t.app, null, id, { authorization: token }).get('/api/user/self'),
      undefined,
      401,
    );
  });

  it('ends every other session when the password changes, keeping the one that changed it', async () => {
    const { username, client: first } = await newUser();
    // Sessions are stamped with the second they were issued: wait so the two cookies differ.
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const second = await t.login(username, 'password123');
    expect(second.cookie).not.toBe(first.cookie);
    const change = await first.put('/api/user/self', { password: 'newpassword1' });
    expectOk(change);
    const renewed = sessionCookieOf(change);
    expect(renewed).not.toBeNull();
    expectRefused(await second.get('/api/user/self'), undefined, 401);
    expectRefused(await first.get('/api/user/self'), undefined, 401);
    first.cookie = renewed;
    expectOk(await first.get('/api/user/self'));
  });

  it('ends the sessions of a user whose password an admin changed', async () => {
    const { id, client } = await newUser();
    expectOk(await root.put('/api/user/', { id, password: 'changed-by-admin' }));
    expectRefused(await client.get('/api/user/self'), undefined, 401);
  });

  it('clears the cookie of a refused session', async () => {
    const { id, client } = await newUser();
    expectOk(await root.post('/api/user/manage', { id, action: 'disable' }));
    const response = await client.get('/api/user/self');
    expect(String(response.headers['set-cookie'])).toMatch(/session=;/);
  });
});

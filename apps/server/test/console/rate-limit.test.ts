import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helper.ts';
import { expectOk, expectRefused } from './console-support.ts';

/** The per-IP critical limit (login, register, reset) and the global /api limit. */

const TOO_MANY = '请求过于频繁，请稍后再试';

describe('critical rate limit (CRITICAL_RATE_LIMIT=3)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ CRITICAL_RATE_LIMIT: '3' });
  });
  afterAll(async () => t.close());

  const loginFrom = (
    remoteAddress: string,
    payload: unknown = { username: 'root', password: 'wrong-password' },
  ) => t.app.inject({ method: 'POST', url: '/api/user/login', payload: payload as object, remoteAddress });

  it('refuses the 4th login attempt from one IP with 429 and the envelope', async () => {
    for (let i = 0; i < 3; i++)
      expectRefused(await loginFrom('10.1.0.1'), '用户名或密码错误，或用户已被封禁');
    expectRefused(await loginFrom('10.1.0.1'), TOO_MANY, 429);
    // Even the right password is refused now: the limit comes before the credentials.
    expectRefused(await loginFrom('10.1.0.1', { username: 'root', password: '123456' }), TOO_MANY, 429);
  });

  it('counts every critical route and malformed attempts in the same bucket', async () => {
    const from = '10.1.0.2';
    expectRefused(await loginFrom(from, { username: 'root' }));
    expectRefused(
      await t.app.inject({
        method: 'POST',
        url: '/api/user/register',
        payload: { username: 'abcdefghijklmnop', password: 'password123' },
        remoteAddress: from,
      }),
    );
    expectRefused(
      await t.app.inject({ method: 'GET', url: '/api/reset_password?email=', remoteAddress: from }),
    );
    expectRefused(
      await t.app.inject({
        method: 'POST',
        url: '/api/user/reset',
        payload: { email: 'a@b.c', token: 'x' },
        remoteAddress: from,
      }),
      TOO_MANY,
      429,
    );
  });

  it('leaves other IPs and other routes alone', async () => {
    expectOk(await loginFrom('10.1.0.3', { username: 'root', password: '123456' }));
    const status = await t.app.inject({ method: 'GET', url: '/api/status', remoteAddress: '10.1.0.1' });
    expectOk(status);
  });
});

describe('global API rate limit (GLOBAL_API_RATE_LIMIT=5)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({ GLOBAL_API_RATE_LIMIT_ENABLE: 'true', GLOBAL_API_RATE_LIMIT: '5' });
  });
  afterAll(async () => t.close());

  const call = (url: string, remoteAddress: string) => t.app.inject({ method: 'GET', url, remoteAddress });

  it('refuses the 6th /api call from one IP with 429 and the envelope', async () => {
    const urls = ['/api/status', '/api/notice', '/api/about', '/api/status', '/api/home_page_content'];
    for (const url of urls) expectOk(await call(url, '10.2.0.1'));
    expectRefused(await call('/api/status', '10.2.0.1'), TOO_MANY, 429);
    // Authenticated routes share the bucket, and the limit answers before the 401.
    expectRefused(await call('/api/user/self', '10.2.0.1'), TOO_MANY, 429);
  });

  it('counts each IP separately', async () => {
    for (let i = 0; i < 5; i++) expectOk(await call('/api/status', '10.2.0.2'));
    expectRefused(await call('/api/status', '10.2.0.2'), TOO_MANY, 429);
    expectOk(await call('/api/status', '10.2.0.3'));
  });
});

describe('global web rate limit', () => {
  it('limits console page loads per IP but not bundle files', async () => {
    const t = await buildTestApp({ GLOBAL_WEB_RATE_LIMIT_ENABLE: 'true', GLOBAL_WEB_RATE_LIMIT: '3' });
    try {
      const statuses = [];
      for (let i = 0; i < 4; i++)
        statuses.push((await t.app.inject({ method: 'GET', url: '/login' })).statusCode);
      expect(statuses.slice(0, 3).every((status) => status !== 429)).toBe(true);
      expect(statuses[3]).toBe(429);
      expect((await t.app.inject({ method: 'GET', url: '/assets/index-abc123.js' })).statusCode).not.toBe(
        429,
      );
      expect((await t.app.inject({ method: 'GET', url: '/api/status' })).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});

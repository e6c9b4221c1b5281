import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import {
  createUser,
  expectOk,
  expectRefused,
  ROOT_PASSWORD,
  setOption,
  uniqueName,
} from './console-support.ts';

/** Admin user management: create, list, search, get and update. */

let t: TestApp;
let root: ConsoleClient;
let admin: ConsoleClient;

beforeAll(async () => {
  t = await buildTestApp();
  root = await t.login('root', ROOT_PASSWORD);
  const name = uniqueName('ad');
  await createUser(root, name, 'password123', 10);
  admin = await t.login(name, 'password123');
});
afterAll(async () => t.close());

describe('admin create', () => {
  it('requires username and password and applies the account rules', async () => {
    expectRefused(await admin.post('/api/user/', { username: '', password: '' }), '用户名和密码不能为空');
    expectRefused(await admin.post('/api/user/', { username: 'abc', password: '' }), '用户名和密码不能为空');
    expectRefused(
      await admin.post('/api/user/', { username: 'x'.repeat(13), password: 'password123' }),
      /用户名长度/,
    );
    expectRefused(await admin.post('/api/user/', { username: 'pwshort', password: 'short' }), /密码长度/);
    expectRefused(
      await admin.post('/api/user/', { username: 'root', password: 'password123' }),
      '用户名已存在，或已注销',
    );
  });

  it('creates a common user with QuotaForNewUser, the display name and a system log', async () => {
    await setOption(root, 'QuotaForNewUser', 4321);
    const name = uniqueName('cq');
    try {
      expectOk(
        await admin.post('/api/user/', { username: name, password: 'password123', display_name: '显示名' }),
      );
    } finally {
      await setOption(root, 'QuotaForNewUser', 0);
    }
    const page = expectOk(await admin.get(`/api/user/search?keyword=${name}`));
    expect(page.items).toMatchObject([
      { username: name, display_name: '显示名', quota: 4321, role: 1, status: 1 },
    ]);
    expect(page.items[0].password).toBeUndefined();
    expect(page.items[0].access_token).toBeUndefined();
    const logs = await t.app.services.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', page.items[0].id)
      .execute();
    expect(logs).toMatchObject([{ type: 4 }]);
    expect((await t.login(name, 'password123')).userId).toBe(page.items[0].id);
  });
});

describe('admin list and search', () => {
  const prefix = `ls${Math.random().toString(36).slice(2, 6)}`;
  const ids: number[] = [];
  beforeAll(async () => {
    for (let i = 0; i < 5; i++) ids.push(await createUser(root, `${prefix}u${i}`));
    expectOk(await root.put('/api/user/', { id: ids[1], email: `${prefix}mail@example.com` }));
    expectOk(await root.put('/api/user/', { id: ids[2], display_name: `${prefix}显示` }));
    expectOk(await root.put('/api/user/', { id: ids[3], group: 'vip' }));
    expectOk(await root.put('/api/user/', { id: ids[4], group: 'vip' }));
  });

  it('pages from p=1 with page_size and total, newest first', async () => {
    const all = expectOk(await admin.get('/api/user/?p=1&page_size=1000'));
    expect(all.total).toBeGreaterThanOrEqual(8);
    const first = expectOk(await admin.get('/api/user/?p=1&page_size=3'));
    const second = expectOk(await admin.get('/api/user/?p=2&page_size=3'));
    expect(first).toMatchObject({ page: 1, page_size: 3, total: all.total });
    expect(first.items).toHaveLength(3);
    expect(second.items).toHaveLength(3);
    const firstIds = first.items.map((item: { id: number }) => item.id);
    expect(firstIds).toEqual([...firstIds].sort((a, b) => b - a));
    expect(second.items[0].id).toBeLessThan(firstIds[2]);
    // p below 1 is page 1; a page past the end is empty but keeps the total.
    expect(expectOk(await admin.get('/api/user/?p=0&page_size=3')).items).toEqual(first.items);
    expect(expectOk(await admin.get('/api/user/?p=999&page_size=3'))).toMatchObject({
      items: [],
      total: all.total,
    });
    expect(expectOk(await admin.get('/api/user/')).page_size).toBe(10);
    expect(expectOk(await admin.get('/api/user/?page_size=1000')).page_size).toBe(100);
    // Absurd pages are clamped instead of overflowing the database's integer offset.
    for (const p of ['1e300', '99999999999999999999']) {
      expect(expectOk(await admin.get(`/api/user/?p=${p}`))).toMatchObject({ items: [], page: 1_000_000 });
    }
  });

  it('matches the keyword against id, username, e-mail and display name', async () => {
    const names = async (query: string) =>
      (
        expectOk(await admin.get(`/api/user/search?${query}&page_size=100`)).items as Array<{
          username: string;
        }>
      )
        .map((item) => item.username)
        .sort();
    expect(await names(`keyword=${prefix}u`)).toEqual([0, 1, 2, 3, 4].map((i) => `${prefix}u${i}`));
    expect(await names(`keyword=${prefix}u3`)).toEqual([`${prefix}u3`]);
    expect(await names(`keyword=${prefix}mail`)).toEqual([`${prefix}u1`]);
    expect(await names(`keyword=${encodeURIComponent(`${prefix}显示`)}`)).toEqual([`${prefix}u2`]);
    expect(await names(`keyword=${ids[0]}`)).toContain(`${prefix}u0`);
    expect(await names(`keyword=${prefix}u&group=vip`)).toEqual([`${prefix}u3`, `${prefix}u4`]);
    expect(await names(`group=vip`)).toEqual([`${prefix}u3`, `${prefix}u4`]);
    expect(await names(`keyword=no-such-user-anywhere`)).toEqual([]);
    const paged = expectOk(await admin.get(`/api/user/search?keyword=${prefix}u&p=2&page_size=2`));
    expect(paged).toMatchObject({ page: 2, page_size: 2, total: 5 });
    expect(paged.items).toHaveLength(2);
  });
});

describe('search keywords with LIKE wildcards', () => {
  it('treats _ and % in the keyword as literal characters', async () => {
    const tag = Math.random().toString(36).slice(2, 6);
    await createUser(root, `w${tag}_a`);
    await createUser(root, `w${tag}xa`);
    await createUser(root, `w${tag}%b`);
    const names = async (keyword: string) =>
      (
        expectOk(await admin.get(`/api/user/search?keyword=${encodeURIComponent(keyword)}`)).items as Array<{
          username: string;
        }>
      )
        .map((item) => item.username)
        .sort();
    expect(await names(`w${tag}_`)).toEqual([`w${tag}_a`]);
    expect(await names(`w${tag}%`)).toEqual([`w${tag}%b`]);
    expect(await names(`w${tag}`)).toEqual([`w${tag}%b`, `w${tag}_a`, `w${tag}xa`]);
    expect(await names(`W${tag.toUpperCase()}_A`)).toEqual([`w${tag}_a`]);
  });
});

describe('admin get and update', () => {
  it('gets a user and answers unknown ids', async () => {
    const name = uniqueName('gt');
    const id = await createUser(root, name);
    expect(expectOk(await admin.get(`/api/user/${id}`))).toMatchObject({ id, username: name, quota: 0 });
    expectRefused(await admin.get('/api/user/999999'), '用户不存在');
    expectRefused(await admin.put('/api/user/', { id: 999999, display_name: 'x' }), '用户不存在');
  });

  it('edits username, display name, group, e-mail and password', async () => {
    const id = await createUser(root, uniqueName('ed'));
    const renamed = uniqueName('ne');
    expectOk(
      await admin.put('/api/user/', {
        id,
        username: renamed,
        display_name: '改名',
        group: 'vip',
        email: `${renamed}@example.com`,
        password: 'newpass1234',
      }),
    );
    expect(expectOk(await admin.get(`/api/user/${id}`))).toMatchObject({
      username: renamed,
      display_name: '改名',
      group: 'vip',
      email: `${renamed}@example.com`,
    });
    expect((await t.login(`${renamed}@example.com`, 'newpass1234')).userId).toBe(id);
    expectRefused(await admin.put('/api/user/', { id, email: 'not-an-email' }), '无效的邮箱地址');
    // An address held by another live account is refused; keeping one's own is fine.
    const other = await createUser(root, uniqueName('ot'));
    expectRefused(
      await admin.put('/api/user/', { id: other, email: `${renamed}@example.com` }),
      '邮箱地址已被占用',
    );
    expectOk(await admin.put('/api/user/', { id, email: `${renamed}@example.com`, display_name: '改名2' }));
    expectRefused(await admin.put('/api/user/', { id, username: 'root' }), '用户名已存在，或已注销');
    expectRefused(await admin.put('/api/user/', { id, password: 'short' }), /密码长度/);
  });

  it('writes a management log (type 3) with the from/to of a quota change', async () => {
    const name = uniqueName('qt');
    const id = await createUser(root, name);
    expectOk(await admin.put('/api/user/', { id, quota: 1_500_000 }));
    expectOk(await admin.put('/api/user/', { id, quota: 1_500_000 }));
    expectOk(await admin.put('/api/user/', { id, quota: -20 }));
    expect(expectOk(await admin.get(`/api/user/${id}`)).quota).toBe(-20);
    const logs = await t.app.services.logDatabase.db
      .selectFrom('logs')
      .selectAll()
      .where('user_id', '=', id)
      .where('type', '=', 3)
      .orderBy('id')
      .execute();
    expect(logs).toHaveLength(2);
    expect(logs.map((log) => JSON.parse(log.other ?? '{}'))).toMatchObject([
      { from: 0, to: 1_500_000, admin_id: admin.userId },
      { from: 1_500_000, to: -20 },
    ]);
    expect(logs.map((log) => Number(log.quota))).toEqual([1_500_000, -1_500_020]);
    expect(logs[0]!.username).toBe(name);
    expect(logs[0]!.content).toContain('$3.000000');
  });

  it('refuses to edit a deactivated user', async () => {
    const id = await createUser(root, uniqueName('dz'));
    expectOk(await admin.delete(`/api/user/${id}`));
    expectRefused(await admin.put('/api/user/', { id, quota: 5 }), '用户已注销');
  });
});

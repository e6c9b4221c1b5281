import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import {
  createUser,
  expectOk,
  expectRefused,
  NO_PERMISSION,
  ROOT_PASSWORD,
  setOption,
  uniqueName,
} from './console-support.ts';

/** Redemption code management (admin): create, list, search, get, edit, enable/disable, delete. */

const KEY = /^[0-9a-f]{32}$/;
const PASSWORD = 'password123';

let t: TestApp;
let root: ConsoleClient;
let admin: ConsoleClient;
let common: ConsoleClient;

beforeAll(async () => {
  t = await buildTestApp();
  root = await t.login('root', ROOT_PASSWORD);
  const adminName = uniqueName('rad');
  await createUser(root, adminName, PASSWORD, 10);
  admin = await t.login(adminName, PASSWORD);
  const commonName = uniqueName('rcu');
  await createUser(root, commonName, PASSWORD);
  common = await t.login(commonName, PASSWORD);
});
afterAll(async () => t.close());

/** Creates codes as the admin and returns their keys. */
async function createCodes(body: Record<string, unknown>): Promise<string[]> {
  return expectOk(await admin.post('/api/redemption/', body));
}

/** The row of a key (through the repository-free admin search by exact key). */
async function rowOf(key: string) {
  const page = expectOk(await admin.get(`/api/redemption/search?keyword=${key}`));
  expect(page.items).toHaveLength(1);
  return page.items[0];
}

describe('access', () => {
  it('refuses anonymous callers with 401 and common users with the permission message', async () => {
    const routes: Array<[string, string, unknown?]> = [
      ['GET', '/api/redemption/?p=1&page_size=10'],
      ['GET', '/api/redemption/search?keyword=a'],
      ['GET', '/api/redemption/1'],
      ['POST', '/api/redemption/', { name: 'x', quota: 1, count: 1 }],
      ['PUT', '/api/redemption/', { id: 1, name: 'x' }],
      ['PUT', '/api/redemption/?status_only=true', { id: 1, status: 2 }],
      ['DELETE', '/api/redemption/1/'],
    ];
    for (const [method, url, body] of routes) {
      const anonymous = await t.anonymous().request(method as 'GET', url, body as never);
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      expect(anonymous.json().success).toBe(false);
      expectRefused(await common.request(method as 'GET', url, body as never), NO_PERMISSION);
    }
    const stored = await t.app.services.database.db.selectFrom('redemptions').selectAll().execute();
    expect(stored).toHaveLength(0);
  });
});

describe('create', () => {
  it('creates a batch of distinct 32-hex codes with name, quota, creator and status 1', async () => {
    const before = Math.floor(Date.now() / 1000);
    const keys = await createCodes({ name: '新年礼包', quota: 100000, count: 5 });
    expect(keys).toHaveLength(5);
    expect(new Set(keys).size).toBe(5);
    for (const key of keys) expect(key).toMatch(KEY);
    const row = await rowOf(keys[0]!);
    expect(row).toMatchObject({
      key: keys[0],
      name: '新年礼包',
      quota: 100000,
      status: 1,
      used_user_id: 0,
      redeemed_time: 0,
      user_id: admin.userId,
    });
    expect(row.created_time).toBeGreaterThanOrEqual(before);
    expect(row.deleted_at).toBeUndefined();
  });

  it('defaults the count to 1 and an empty name to the formatted quota', async () => {
    const [key] = await createCodes({ name: '', quota: 100000 });
    expect((await rowOf(key!)).name).toBe('$0.20');
    const [spaces] = await createCodes({ name: '   ', quota: 2_500_000, count: 1 });
    expect((await rowOf(spaces!)).name).toBe('$5.00');
    await setOption(root, 'DisplayInCurrencyEnabled', false);
    try {
      const [raw] = await createCodes({ quota: 123456 });
      expect((await rowOf(raw!)).name).toBe('123456');
    } finally {
      await setOption(root, 'DisplayInCurrencyEnabled', true);
    }
  });

  it('enforces name length, count and quota rules', async () => {
    const before = await t.app.services.database.db.selectFrom('redemptions').select('id').execute();
    expectRefused(
      await admin.post('/api/redemption/', { name: 'x'.repeat(21), quota: 1, count: 1 }),
      '兑换码名称长度必须在1-20之间',
    );
    // 20 characters (not bytes) are fine, CJK included.
    expect(await createCodes({ name: '码'.repeat(20), quota: 1, count: 1 })).toHaveLength(1);
    expectRefused(
      await admin.post('/api/redemption/', { name: 'a', quota: 1, count: 0 }),
      '兑换码个数必须大于0',
    );
    expectRefused(
      await admin.post('/api/redemption/', { name: 'a', quota: 1, count: -5 }),
      '兑换码个数必须大于0',
    );
    expectRefused(
      await admin.post('/api/redemption/', { name: 'a', quota: 1, count: 101 }),
      '一次兑换码批量生成的个数不能大于 100',
    );
    expectRefused(
      await admin.post('/api/redemption/', { name: 'a', quota: 0, count: 1 }),
      '兑换码额度必须是正整数',
    );
    expectRefused(
      await admin.post('/api/redemption/', { name: 'a', quota: -100, count: 1 }),
      '兑换码额度必须是正整数',
    );
    expectRefused(
      await admin.post('/api/redemption/', { name: 'a', quota: 1e16, count: 1 }),
      '兑换码额度过大',
    );
    for (const body of [
      { name: 'a', quota: 1.5, count: 1 },
      { name: 'a', quota: '100', count: 1 },
      { name: 'a', quota: 1, count: 2.5 },
      { name: 'a', quota: 1, count: '3' },
      { name: 5, quota: 1, count: 1 },
      { name: 'a', count: 1 },
    ]) {
      expectRefused(await admin.post('/api/redemption/', body), /无效的参数/);
    }
    const after = await t.app.services.database.db.selectFrom('redemptions').select('id').execute();
    expect(after.length).toBe(before.length + 1);
  });

  it('creates 100 codes in one call', async () => {
    const keys = await createCodes({ name: 'bulk', quota: 10, count: 100 });
    expect(new Set(keys).size).toBe(100);
  });
});

describe('list, search, get', () => {
  it('pages from p=1 newest first with items, page, page_size and total', async () => {
    const name = uniqueName('pg');
    await createCodes({ name, quota: 7, count: 3 });
    const first = expectOk(await admin.get('/api/redemption/?p=1&page_size=2'));
    expect(first).toMatchObject({ page: 1, page_size: 2 });
    expect(first.items).toHaveLength(2);
    expect(first.items[0].id).toBeGreaterThan(first.items[1].id);
    expect(first.items[0].name).toBe(name);
    const second = expectOk(await admin.get('/api/redemption/?p=2&page_size=2'));
    expect(second.total).toBe(first.total);
    expect(second.items[0].id).toBeLessThan(first.items[1].id);
    // p below 1 reads page 1; the size is clamped to 1..100, 10 by default.
    expect(expectOk(await admin.get('/api/redemption/?p=0&page_size=2')).items[0].id).toBe(first.items[0].id);
    expect(expectOk(await admin.get('/api/redemption/?p=-3')).page).toBe(1);
    expect(expectOk(await admin.get('/api/redemption/')).page_size).toBe(10);
    expect(expectOk(await admin.get('/api/redemption/?page_size=1000')).page_size).toBe(100);
    const beyond = expectOk(await admin.get('/api/redemption/?p=100000&page_size=100'));
    expect(beyond.items).toEqual([]);
  });

  it('searches by id, exact key and name substring, case-insensitively and literally', async () => {
    const base = uniqueName('Srch');
    const [k1] = await createCodes({ name: `${base}_a%`, quota: 1, count: 1 });
    await createCodes({ name: `x${base.toLowerCase()}b`, quota: 1, count: 1 });
    const row = await rowOf(k1!);
    const byId = expectOk(await admin.get(`/api/redemption/search?keyword=${row.id}`));
    expect(byId.items.map((item: { id: number }) => item.id)).toContain(row.id);
    const byPrefix = expectOk(await admin.get(`/api/redemption/search?keyword=${base}`));
    expect(byPrefix.items).toHaveLength(2);
    expect(byPrefix.total).toBe(2);
    const upper = expectOk(await admin.get(`/api/redemption/search?keyword=${base.toUpperCase()}`));
    expect(upper.items).toHaveLength(2);
    const literal = expectOk(
      await admin.get(`/api/redemption/search?keyword=${encodeURIComponent(`${base}_a%`)}`),
    );
    expect(literal.items.map((item: { key: string }) => item.key)).toEqual([k1]);
    const wildcard = expectOk(await admin.get(`/api/redemption/search?keyword=${encodeURIComponent('%')}`));
    expect(wildcard.items.every((item: { name: string }) => item.name.includes('%'))).toBe(true);
    const paged = expectOk(await admin.get(`/api/redemption/search?keyword=${base}&p=2&page_size=1`));
    expect(paged).toMatchObject({ page: 2, page_size: 1, total: 2 });
    expect(paged.items).toHaveLength(1);
    expect(expectOk(await admin.get('/api/redemption/search?keyword=nothing-matches-this')).items).toEqual(
      [],
    );
    // An empty keyword lists everything, like the plain list.
    const all = expectOk(await admin.get('/api/redemption/search?keyword='));
    expect(all.total).toBe(expectOk(await admin.get('/api/redemption/')).total);
  });

  it('gets one code by id and answers unknown ids plainly', async () => {
    const [key] = await createCodes({ name: 'getme', quota: 3, count: 1 });
    const row = await rowOf(key!);
    expect(expectOk(await admin.get(`/api/redemption/${row.id}`))).toMatchObject({
      id: row.id,
      key,
      name: 'getme',
    });
    expectRefused(await admin.get('/api/redemption/999999'), '兑换码不存在');
    for (const bad of ['0', '-1', 'abc', '1.5', '99999999999']) {
      expectRefused(await admin.get(`/api/redemption/${bad}`), /无效的参数/);
    }
  });
});

describe('edit, status, delete', () => {
  it('edits name and quota of an unused code and answers the new row', async () => {
    const [key] = await createCodes({ name: 'before', quota: 5, count: 1 });
    const { id } = await rowOf(key!);
    const updated = expectOk(await admin.put('/api/redemption/', { id, name: 'after', quota: 6 }));
    expect(updated).toMatchObject({ id, name: 'after', quota: 6, status: 1, key });
    expect(expectOk(await admin.put('/api/redemption/', { id, quota: 9 }))).toMatchObject({
      name: 'after',
      quota: 9,
    });
    expectRefused(await admin.put('/api/redemption/', { id, name: '' }), '兑换码名称长度必须在1-20之间');
    expectRefused(
      await admin.put('/api/redemption/', { id, name: 'y'.repeat(21) }),
      '兑换码名称长度必须在1-20之间',
    );
    expectRefused(await admin.put('/api/redemption/', { id, quota: 0 }), '兑换码额度必须是正整数');
    expectRefused(await admin.put('/api/redemption/', { id: 999999, name: 'x' }), '兑换码不存在');
    expect(await rowOf(key!)).toMatchObject({ name: 'after', quota: 9 });
  });

  it('enables and disables; a disabled code cannot be edited until enabled again', async () => {
    const [key] = await createCodes({ name: 'toggle', quota: 5, count: 1 });
    const { id } = await rowOf(key!);
    expect(expectOk(await admin.put('/api/redemption/?status_only=true', { id, status: 2 })).status).toBe(2);
    expectRefused(
      await admin.put('/api/redemption/', { id, name: 'nope' }),
      '兑换码已禁用，请先启用后再编辑',
    );
    // status_only ignores other fields.
    const enabled = expectOk(
      await admin.put('/api/redemption/?status_only=true', { id, status: 1, name: 'ignored' }),
    );
    expect(enabled).toMatchObject({ status: 1, name: 'toggle' });
    for (const status of [0, 3, 4, -1, undefined]) {
      expectRefused(await admin.put('/api/redemption/?status_only=true', { id, status }), /无效的兑换码状态/);
    }
    expectRefused(
      await admin.put('/api/redemption/?status_only=true', { id: 999999, status: 2 }),
      '兑换码不存在',
    );
    // status_only=false is a full update, where status is not read.
    expect(
      expectOk(await admin.put('/api/redemption/?status_only=false', { id, status: 2, name: 'full' })),
    ).toMatchObject({
      status: 1,
      name: 'full',
    });
  });

  it('a used code can be neither edited nor enabled nor disabled', async () => {
    const [key] = await createCodes({ name: 'usedone', quota: 5, count: 1 });
    const { id } = await rowOf(key!);
    expect(expectOk(await common.post('/api/user/topup', { key }))).toBe(5);
    expectRefused(await admin.put('/api/redemption/', { id, name: 'x' }), '兑换码已被使用，无法编辑');
    expectRefused(await admin.put('/api/redemption/', { id, quota: 500 }), '兑换码已被使用，无法编辑');
    for (const status of [1, 2]) {
      expectRefused(
        await admin.put('/api/redemption/?status_only=true', { id, status }),
        '兑换码已被使用，无法启用或禁用',
      );
    }
    expect(await rowOf(key!)).toMatchObject({
      status: 3,
      quota: 5,
      name: 'usedone',
      used_user_id: common.userId,
    });
  });

  it('soft-deletes: gone from lists, get, edits and redemption, kept in the table', async () => {
    const [key] = await createCodes({ name: 'deleteme', quota: 5, count: 1 });
    const { id } = await rowOf(key!);
    expectOk(await admin.delete(`/api/redemption/${id}/`));
    expectRefused(await admin.delete(`/api/redemption/${id}`), '兑换码不存在');
    expectRefused(await admin.get(`/api/redemption/${id}`), '兑换码不存在');
    expect(expectOk(await admin.get(`/api/redemption/search?keyword=${key}`)).items).toEqual([]);
    const listed = expectOk(await admin.get('/api/redemption/?page_size=100')).items;
    expect(listed.some((item: { id: number }) => item.id === id)).toBe(false);
    expectRefused(await admin.put('/api/redemption/', { id, name: 'x' }), '兑换码不存在');
    expectRefused(await admin.put('/api/redemption/?status_only=true', { id, status: 2 }), '兑换码不存在');
    expectRefused(await common.post('/api/user/topup', { key }), '兑换失败，无效的兑换码');
    const stored = await t.app.services.database.db
      .selectFrom('redemptions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.deleted_at)).toBeGreaterThan(0);
    expect(Number(stored.status)).toBe(1);
  });

  it('refuses malformed bodies and ids without a 500', async () => {
    const bodies: unknown[] = [
      {},
      { id: 0, name: 'x' },
      { id: 1.5, name: 'x' },
      { id: '1', name: 'x' },
      { id: 1, name: 3 },
      { id: 1, quota: 'x' },
      { id: 1, quota: 1.5 },
      [],
      'text',
    ];
    for (const body of bodies) {
      const response = await admin.put('/api/redemption/', body as never);
      expect(response.statusCode, JSON.stringify(body)).toBeLessThan(500);
      expect(response.json().success).toBe(false);
    }
    const broken = await admin.request('POST', '/api/redemption/', '{"name":', {
      'content-type': 'application/json',
    });
    expect(broken.statusCode).toBeLessThan(500);
    expect(broken.json().success).toBe(false);
    expectRefused(await admin.delete('/api/redemption/abc'), /无效的参数/);
    // A non-integer page reads as 0 (strconv.Atoi in the reference): the first page.
    expect(expectOk(await admin.get('/api/redemption/?p=abc'))).toMatchObject({ page: 1 });
  });
});

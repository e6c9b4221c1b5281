import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { createUser, expectOk, expectRefused, ROOT_PASSWORD, uniqueName } from './console-support.ts';

/** Redeeming codes: POST /api/user/topup, exactly once under concurrency, with a top-up log. */

const PASSWORD = 'password123';

let t: TestApp;
let root: ConsoleClient;

beforeAll(async () => {
  t = await buildTestApp();
  root = await t.login('root', ROOT_PASSWORD);
});
afterAll(async () => t.close());

async function newUser(): Promise<ConsoleClient> {
  const name = uniqueName('rdm');
  await createUser(root, name, PASSWORD);
  return t.login(name, PASSWORD);
}

async function createCodes(quota: number, count = 1, name = 'gift'): Promise<string[]> {
  return expectOk(await root.post('/api/redemption/', { name, quota, count }));
}

const quotaOf = async (client: ConsoleClient) => (await t.app.services.users.findById(client.userId!))!.quota;

const topUpLogs = (userIds: number[]) =>
  t.app.services.logDatabase.db
    .selectFrom('logs')
    .selectAll()
    .where('type', '=', 1)
    .where('user_id', 'in', userIds)
    .execute();

const storedCode = (key: string) =>
  t.app.services.database.db
    .selectFrom('redemptions')
    .selectAll()
    .where('key', '=', key)
    .executeTakeFirstOrThrow();

describe('redeem', () => {
  it('credits the quota once, marks the code used and writes a top-up log', async () => {
    const user = await newUser();
    const [key] = await createCodes(1_000_000);
    const before = Math.floor(Date.now() / 1000);
    const reply = await user.post('/api/user/topup', { key });
    expect(expectOk(reply)).toBe(1_000_000);
    expect(await quotaOf(user)).toBe(1_000_000);
    const code = await storedCode(key!);
    expect(Number(code.status)).toBe(3);
    expect(Number(code.used_user_id)).toBe(user.userId);
    expect(Number(code.redeemed_time)).toBeGreaterThanOrEqual(before);
    const logs = await topUpLogs([user.userId!]);
    expect(logs).toHaveLength(1);
    expect(logs[0]!.content).toBe(`通过兑换码充值 $2.000000 额度，兑换码ID ${code.id}`);
    expect(Number(logs[0]!.quota)).toBe(1_000_000);

    expectRefused(await user.post('/api/user/topup', { key }), '兑换失败，该兑换码已被使用');
    const other = await newUser();
    expectRefused(await other.post('/api/user/topup', { key }), '兑换失败，该兑换码已被使用');
    expect(await quotaOf(user)).toBe(1_000_000);
    expect(await quotaOf(other)).toBe(0);
    expect(await topUpLogs([user.userId!, other.userId!])).toHaveLength(1);
  });

  it('accepts a key with surrounding spaces or in upper case', async () => {
    const user = await newUser();
    const [a, b] = await createCodes(10, 2);
    expect(expectOk(await user.post('/api/user/topup', { key: `  ${a}\n` }))).toBe(10);
    expect(expectOk(await user.post('/api/user/topup', { key: b!.toUpperCase() }))).toBe(10);
    expect(await quotaOf(user)).toBe(20);
  });

  it('refuses unknown, disabled, deleted and empty codes and credits nothing', async () => {
    const user = await newUser();
    const [disabled, deleted] = await createCodes(50, 2);
    const page = expectOk(await root.get(`/api/redemption/search?keyword=${disabled}`));
    expectOk(await root.put('/api/redemption/?status_only=true', { id: page.items[0].id, status: 2 }));
    const gone = expectOk(await root.get(`/api/redemption/search?keyword=${deleted}`));
    expectOk(await root.delete(`/api/redemption/${gone.items[0].id}`));

    expectRefused(await user.post('/api/user/topup', { key: 'f'.repeat(32) }), '兑换失败，无效的兑换码');
    expectRefused(await user.post('/api/user/topup', { key: 'not a code' }), '兑换失败，无效的兑换码');
    expectRefused(await user.post('/api/user/topup', { key: 'x'.repeat(200) }), '兑换失败，无效的兑换码');
    expectRefused(await user.post('/api/user/topup', { key: disabled }), '兑换失败，该兑换码已被禁用');
    expectRefused(await user.post('/api/user/topup', { key: deleted }), '兑换失败，无效的兑换码');
    expectRefused(await user.post('/api/user/topup', { key: '' }), '未提供兑换码');
    expectRefused(await user.post('/api/user/topup', { key: '   ' }), '未提供兑换码');
    // LIKE wildcards mean nothing to an exact key match.
    expectRefused(await user.post('/api/user/topup', { key: '%' }), '兑换失败，无效的兑换码');
    for (const body of [{}, { key: 5 }, { key: null }, { key: ['a'] }, []]) {
      expectRefused(await user.post('/api/user/topup', body as never), /无效的参数/);
    }
    expect(await quotaOf(user)).toBe(0);
    expect(await topUpLogs([user.userId!])).toHaveLength(0);

    // Enabled again, the disabled code works.
    expectOk(await root.put('/api/redemption/?status_only=true', { id: page.items[0].id, status: 1 }));
    expect(expectOk(await user.post('/api/user/topup', { key: disabled }))).toBe(50);
  });

  it('requires a logged-in user', async () => {
    const [key] = await createCodes(10);
    const response = await t.anonymous().post('/api/user/topup', { key });
    expect(response.statusCode).toBe(401);
    expect(Number((await storedCode(key!)).status)).toBe(1);
  });

  it('credits one code exactly once when 20 requests from 5 users race for it', async () => {
    const users = await Promise.all(Array.from({ length: 5 }, newUser));
    const [key] = await createCodes(777_777);
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, index) => users[index % users.length]!.post('/api/user/topup', { key })),
    );
    const bodies = replies.map((reply) => {
      expect(reply.statusCode, reply.body).toBe(200);
      return reply.json();
    });
    expect(bodies.filter((body) => body.success)).toEqual([{ success: true, message: '', data: 777_777 }]);
    for (const body of bodies.filter((entry) => !entry.success)) {
      expect(body.message).toBe('兑换失败，该兑换码已被使用');
    }
    const balances = await Promise.all(users.map(quotaOf));
    expect(balances.reduce((sum, value) => sum + value, 0)).toBe(777_777);
    const code = await storedCode(key!);
    const winner = users[balances.indexOf(777_777)]!;
    expect(Number(code.used_user_id)).toBe(winner.userId);
    const logs = await topUpLogs(users.map((user) => user.userId!));
    expect(logs).toHaveLength(1);
    expect(logs[0]!.user_id).toBe(winner.userId);
  });

  it('loses no credit when one user redeems 10 different codes at once', async () => {
    const user = await newUser();
    const keys = await createCodes(1_234, 10);
    const replies = await Promise.all(keys.map((key) => user.post('/api/user/topup', { key })));
    for (const reply of replies) expect(expectOk(reply)).toBe(1_234);
    expect(await quotaOf(user)).toBe(12_340);
    expect(await topUpLogs([user.userId!])).toHaveLength(10);
  });
});

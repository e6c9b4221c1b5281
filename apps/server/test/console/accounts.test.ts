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

/** Registration, invitations, login and logout, and what a user does to their own account. */

let t: TestApp;
let root: ConsoleClient;

beforeAll(async () => {
  t = await buildTestApp();
  root = await t.login('root', ROOT_PASSWORD);
});
afterAll(async () => t.close());

const register = (body: Record<string, unknown>) => t.anonymous().post('/api/user/register', body);
const login = (username: string, password: string) =>
  t.anonymous().post('/api/user/login', { username, password });
const logsOf = (userId: number) =>
  t.app.services.logDatabase.db
    .selectFrom('logs')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('id')
    .execute();
async function userByName(username: string) {
  const page = expectOk(await root.get(`/api/user/search?keyword=${username}`));
  return page.items.find((item: { username: string }) => item.username === username);
}

describe('registration', () => {
  it.each([
    [{ username: 'abcdefghijklm', password: 'password123' }, '用户名长度不能超过 12 个字符'],
    [{ username: '', password: 'password123' }, '用户名不能为空'],
    [{ username: 'has space', password: 'password123' }, '用户名不能包含空白或控制字符'],
    [{ username: 'shortpw', password: '1234567' }, '密码长度必须在 8 到 20 个字符之间'],
    [{ username: 'longpw', password: 'x'.repeat(21) }, '密码长度必须在 8 到 20 个字符之间'],
    [{ username: 'mismatch', password: 'password123', password2: 'password124' }, '两次输入的密码不一致'],
  ])('refuses %j', async (body, message) => {
    expectRefused(await register(body), message);
    if (body.username) expect(await userByName(body.username)).toBeUndefined();
  });

  it('accepts 12 characters and 8 or 20 character passwords, and refuses a duplicate', async () => {
    const name = `r${Date.now().toString().slice(-11)}`;
    expect(name).toHaveLength(12);
    expectOk(await register({ username: name, password: '12345678', password2: '12345678' }));
    expectOk(await register({ username: `${name.slice(0, 10)}x`, password: 'y'.repeat(20) }));
    expectRefused(await register({ username: name, password: 'another123' }), '用户名已存在，或已注销');
    expectOk(await login(name, '12345678'));
    expect(await userByName(name)).toMatchObject({ role: 1, status: 1, group: 'default', quota: 0 });
  });

  it('obeys RegisterEnabled and PasswordRegisterEnabled', async () => {
    await setOption(root, 'RegisterEnabled', 'false');
    expectRefused(
      await register({ username: uniqueName('off'), password: 'password123' }),
      '管理员关闭了新用户注册',
    );
    await setOption(root, 'RegisterEnabled', 'true');
    await setOption(root, 'PasswordRegisterEnabled', 'false');
    expectRefused(
      await register({ username: uniqueName('off'), password: 'password123' }),
      /关闭了通过密码进行注册/,
    );
    await setOption(root, 'PasswordRegisterEnabled', 'true');
    expectOk(await register({ username: uniqueName('on'), password: 'password123' }));
  });

  it('grants QuotaForNewUser, QuotaForInvitee and QuotaForInviter with system logs', async () => {
    await setOption(root, 'QuotaForNewUser', 1000);
    await setOption(root, 'QuotaForInvitee', 200);
    await setOption(root, 'QuotaForInviter', 700_000);
    try {
      const inviterName = uniqueName('inv');
      const inviterId = await createUser(root, inviterName);
      const inviter = await t.login(inviterName, 'password123');
      const affCode = expectOk(await inviter.get('/api/user/aff'));
      expect(affCode).toMatch(/^[A-Za-z0-9]{4,}$/);
      expect(expectOk(await inviter.get('/api/user/aff'))).toBe(affCode);

      const plain = uniqueName('pl');
      expectOk(await register({ username: plain, password: 'password123' }));
      expect(await userByName(plain)).toMatchObject({ quota: 1000, inviter_id: 0 });

      const invitee = uniqueName('ie');
      expectOk(await register({ username: invitee, password: 'password123', aff_code: affCode }));
      const inviteeRow = await userByName(invitee);
      expect(inviteeRow).toMatchObject({ quota: 1200, inviter_id: inviterId });
      const second = uniqueName('ie');
      expectOk(await register({ username: second, password: 'password123', aff_code: affCode }));

      const self = expectOk(await inviter.get('/api/user/self'));
      expect(self).toMatchObject({
        aff_count: 2,
        aff_quota: 1_400_000,
        aff_history_quota: 1_400_000,
        quota: 1000,
      });

      const inviteeLogs = await logsOf(inviteeRow.id);
      expect(inviteeLogs.map((log) => log.type)).toEqual([4, 4]);
      expect(inviteeLogs.map((log) => log.content).join('|')).toMatch(/新用户注册赠送.*\|使用邀请码赠送/);
      const inviterLogs = (await logsOf(inviterId)).filter((log) => log.content?.includes('邀请用户赠送'));
      expect(inviterLogs).toHaveLength(2);
      expect(inviterLogs.every((log) => log.type === 4 && log.username === inviterName)).toBe(true);

      // An unknown invite code registers normally without a reward.
      const stray = uniqueName('st');
      expectOk(await register({ username: stray, password: 'password123', aff_code: 'NOPE0000' }));
      expect(await userByName(stray)).toMatchObject({ quota: 1000, inviter_id: 0 });
    } finally {
      for (const key of ['QuotaForNewUser', 'QuotaForInvitee', 'QuotaForInviter'])
        await setOption(root, key, 0);
    }
  });
});

describe('invite quota transfer', () => {
  async function inviterWith(affQuota: number) {
    const name = uniqueName('tr');
    const id = await createUser(root, name);
    await t.app.services.users.update(id, { aff_quota: affQuota });
    return { id, client: await t.login(name, 'password123') };
  }

  it('needs at least one unit and enough invite quota', async () => {
    const { id, client } = await inviterWith(600_000);
    expectRefused(await client.post('/api/user/aff_transfer', { quota: 499_999 }), /邀请额度最小为/);
    expectRefused(await client.post('/api/user/aff_transfer', { quota: 0 }), /邀请额度最小为/);
    expectOk(await client.post('/api/user/aff_transfer', { quota: 500_000 }));
    expectRefused(await client.post('/api/user/aff_transfer', { quota: 500_000 }), '邀请额度不足！');
    expect(expectOk(await client.get('/api/user/self'))).toMatchObject({
      quota: 500_000,
      aff_quota: 100_000,
    });
    expect((await logsOf(id)).filter((log) => log.content?.includes('划转'))).toHaveLength(1);
  });

  it('is atomic under concurrent transfers', async () => {
    const { client } = await inviterWith(1_000_000);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => client.post('/api/user/aff_transfer', { quota: 500_000 })),
    );
    expect(results.filter((response) => response.json().success)).toHaveLength(2);
    expect(expectOk(await client.get('/api/user/self'))).toMatchObject({ quota: 1_000_000, aff_quota: 0 });
  });
});

describe('login and logout', () => {
  let name: string;
  let id: number;
  beforeAll(async () => {
    name = uniqueName('lg');
    id = await createUser(root, name);
    expectOk(await root.put('/api/user/', { id, email: `${name}@example.com` }));
  });

  it('logs in by username or e-mail and returns the session user', async () => {
    for (const identity of [name, `${name}@example.com`]) {
      const response = await login(identity, 'password123');
      expect(expectOk(response)).toEqual({
        id,
        username: name,
        display_name: name,
        role: 1,
        status: 1,
        group: 'default',
      });
      expect(String(response.headers['set-cookie'])).toMatch(/^session=[^;]+;.*HttpOnly.*SameSite=Strict/i);
    }
  });

  it('refuses wrong credentials, missing fields and unknown users alike', async () => {
    const message = '用户名或密码错误，或用户已被封禁';
    expectRefused(await login(name, 'password124'), message);
    expectRefused(await login('nobody-here', 'password123'), message);
    expectRefused(await login('', 'password123'), '无效的参数');
    expectRefused(await login(name, ''), '无效的参数');
    expect((await login(name, 'wrong')).headers['set-cookie']).toBeUndefined();
  });

  it('refuses a banned user and obeys PasswordLoginEnabled', async () => {
    expectOk(await root.post('/api/user/manage', { id, action: 'disable' }));
    expectRefused(await login(name, 'password123'), '用户已被封禁');
    expectOk(await root.post('/api/user/manage', { id, action: 'enable' }));
    await setOption(root, 'PasswordLoginEnabled', 'false');
    expectRefused(await login(name, 'password123'), '管理员关闭了密码登录');
    await setOption(root, 'PasswordLoginEnabled', 'true');
    expectOk(await login(name, 'password123'));
  });

  it('clears the session cookie on logout', async () => {
    const response = await t.anonymous().get('/api/user/logout');
    expectOk(response);
    const cookie = String(response.headers['set-cookie']);
    expect(cookie).toMatch(/^session=;/);
    expect(cookie).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
  });
});

describe('own account', () => {
  it('updates display name, refuses a taken username, changes the password', async () => {
    const name = uniqueName('me');
    await createUser(root, name);
    const me = await t.login(name, 'password123');
    expectOk(await me.put('/api/user/self', { display_name: '新的名字' }));
    expect(expectOk(await me.get('/api/user/self')).display_name).toBe('新的名字');
    expectRefused(await me.put('/api/user/self', { username: 'root' }), '用户名已存在，或已注销');
    expectRefused(await me.put('/api/user/self', { username: 'x'.repeat(13) }), /用户名长度/);
    expectRefused(await me.put('/api/user/self', { password: 'short' }), /密码长度/);
    expectRefused(await me.put('/api/user/self', { display_name: '名'.repeat(21) }), /显示名称长度/);
    const renamed = uniqueName('rn');
    const change = await me.put('/api/user/self', { username: renamed, password: 'brandnew123' });
    expectOk(change);
    expectRefused(await login(name, 'password123'), '用户名或密码错误，或用户已被封禁');
    expectRefused(await login(renamed, 'password123'), '用户名或密码错误，或用户已被封禁');
    expect(expectOk(await login(renamed, 'brandnew123')).username).toBe(renamed);
  });

  it('deletes itself, except root; a deleted user cannot log in or come back', async () => {
    expectRefused(await root.delete('/api/user/self'), '不能删除超级管理员账户');
    expectOk(await root.get('/api/user/self'));
    const name = uniqueName('del');
    const id = await createUser(root, name);
    const me = await t.login(name, 'password123');
    const response = await me.delete('/api/user/self');
    expectOk(response);
    expect(String(response.headers['set-cookie'])).toMatch(/^session=;/);
    expectRefused(await login(name, 'password123'), '用户名或密码错误，或用户已被封禁');
    expectRefused(await register({ username: name, password: 'password123' }), '用户名已存在，或已注销');
    expect(expectOk(await root.get(`/api/user/${id}`)).deleted_at).toBeGreaterThan(0);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../../helper.ts';
import { createUser, expectOk, expectRefused, ROOT_PASSWORD } from '../console-support.ts';
import { configureEpay } from '../wallet-support.ts';
import { expectShape, PAGE, REDEMPTION, USER } from './reference-shapes.ts';

/**
 * The account, wallet and redemption calls of new-api v0.4.8.9.1's console (PersonalSetting,
 * TopUp, EditUser, UsersTable, EditRedemption, RedemptionsTable), sent as it sends them and
 * checked against what controller/user.go, topup.go and redemption.go answer.
 */
describe('console contract: accounts, wallet and redemptions', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let user: ConsoleClient;
  let userId: number;

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    userId = await createUser(root, 'account');
    user = await t.login('account', 'password123');
  });
  afterAll(async () => t.close());

  it('GET /api/user/self and /api/user/:id: a model.User without its password', async () => {
    const self = expectOk(await user.get('/api/user/self'));
    expectShape(self, USER, 'self');
    expect(self.id).toBe(userId);
    const other = expectOk(await root.get(`/api/user/${userId}`));
    expectShape(other, USER, 'user');
    for (const body of [self, other]) {
      expect(body.password ?? '').toBe('');
      expect(body.access_token ?? null).toBeNull();
    }
  });

  it('PUT /api/user/ takes back the whole GET answer with password "" (EditUser), quota included', async () => {
    const loaded = expectOk(await root.get(`/api/user/${userId}`));
    const data = { ...loaded, password: '', display_name: 'edited', quota: 4321, id: userId };
    const reply = await root.put('/api/user/', data);
    expectOk(reply);
    const after = expectOk(await root.get(`/api/user/${userId}`));
    expect(after).toMatchObject({ display_name: 'edited', quota: 4321 });
    // The password was not changed by the empty one.
    await t.login('account', 'password123');
  });

  it('PUT /api/user/self takes the whole self answer (EditUser without an id) and {password} alone (PersonalSetting)', async () => {
    const loaded = expectOk(await user.get('/api/user/self'));
    expectOk(await user.put('/api/user/self', { ...loaded, password: '', display_name: 'mine' }));
    expect(expectOk(await user.get('/api/user/self')).display_name).toBe('mine');
    expectOk(await user.put('/api/user/self', { password: 'password456' }));
    user = await t.login('account', 'password456');
  });

  it('POST /api/user/manage answers data {role, status} (UsersTable reads both)', async () => {
    const disabled = expectOk(await root.post('/api/user/manage', { id: userId, action: 'disable' }));
    expect(disabled).toMatchObject({ role: 1, status: 2 });
    const enabled = expectOk(await root.post('/api/user/manage', { id: userId, action: 'enable' }));
    expect(enabled).toMatchObject({ role: 1, status: 1 });
    // Disabling ends the user's sessions.
    user = await t.login('account', 'password456');
    expectRefused(await root.post('/api/user/manage', { id: 999999, action: 'enable' }));
  });

  it('GET /api/user/token and /api/user/aff: data is a bare string', async () => {
    const token = expectOk(await user.get('/api/user/token'));
    expect(typeof token).toBe('string');
    expect(token.length).toBeGreaterThanOrEqual(29);
    expect(token.length).toBeLessThanOrEqual(32);
    const aff = expectOk(await user.get('/api/user/aff'));
    expect(typeof aff).toBe('string');
    expect(aff.length).toBeGreaterThan(0);
  });

  it('POST /api/user/topup {key}: data is the redeemed quota as a number', async () => {
    const [key] = expectOk(await root.post('/api/redemption/', { name: 'topup', count: 1, quota: 777 }));
    expect(expectOk(await user.post('/api/user/topup', { key }))).toBe(777);
    expectRefused(await user.post('/api/user/topup', { key }));
  });

  it('POST /api/user/aff_transfer {quota}: refusal in the usual envelope, success says 划转成功', async () => {
    expectRefused(await user.post('/api/user/aff_transfer', { quota: 1 }));
    await t.app.services.users.update(userId, { aff_quota: 600_000 });
    const reply = envelope(await user.post('/api/user/aff_transfer', { quota: 500_000 }));
    expect(reply).toMatchObject({ success: true, message: '划转成功' });
  });

  it('POST /api/user/amount and /pay: message "success", amount data as text with two decimals, pay data and url', async () => {
    await configureEpay(root);
    const amount = envelope(await user.post('/api/user/amount', { amount: 10, top_up_code: '' }));
    expect(amount.message).toBe('success');
    expect(amount.data).toMatch(/^\d+\.\d\d$/);
    const pay = await user.post('/api/user/pay', { amount: 10, top_up_code: '', payment_method: 'zfb' });
    const body = JSON.parse(pay.body);
    expect(body.message).toBe('success');
    expect(typeof body.data).toBe('object');
    expect(typeof body.url).toBe('string');
    // parseFloat('') / parseInt('') is NaN, which the console's JSON carries as null.
    for (const url of ['/api/user/amount', '/api/user/pay']) {
      expectRefused(await user.post(url, { amount: null, top_up_code: '', payment_method: 'zfb' }));
    }
  });

  it('redemptions: POST answers the keys, GET/PUT a model.Redemption, status_only, DELETE /:id/', async () => {
    const keys = expectOk(await root.post('/api/redemption/', { name: 'batch', count: 2, quota: 100 }));
    expect(keys).toHaveLength(2);
    for (const key of keys) expect(key).toMatch(/^[0-9a-f]{32}$/);
    const page = expectOk(await root.get('/api/redemption/?p=1&page_size=10'));
    expectShape(page, PAGE, 'redemption page');
    const row = page.items.find((item: { key: string }) => item.key === keys[0]);
    expectShape(row, REDEMPTION, 'redemption row');
    const loaded = expectOk(await root.get(`/api/redemption/${row.id}`));
    expectShape(loaded, REDEMPTION, 'redemption');
    // EditRedemption sends the loaded row with parseInt(count), which is NaN (JSON null) when absent.
    const edited = expectOk(
      await root.put('/api/redemption/', { ...loaded, name: 'renamed', quota: 55, count: null, id: row.id }),
    );
    expectShape(edited, REDEMPTION, 'edited');
    expect(edited).toMatchObject({ name: 'renamed', quota: 55 });
    const disabled = expectOk(await root.put('/api/redemption/?status_only=true', { id: row.id, status: 2 }));
    expect(disabled).toMatchObject({ status: 2, name: 'renamed' });
    expectOk(await root.delete(`/api/redemption/${row.id}/`));
    expectRefused(await root.get(`/api/redemption/${row.id}`));
  });

  it('refuses what the reference refuses, in the usual envelope: bad names and counts, ids that are not numbers, an empty code', async () => {
    const add = (body: Record<string, unknown>) => root.post('/api/redemption/', { quota: 5, ...body });
    expectRefused(await add({ name: 'x'.repeat(21), count: 1 }), '兑换码名称长度必须在1-20之间');
    expectRefused(await add({ name: 'n', count: 101 }), '一次兑换码批量生成的个数不能大于 100');
    expectRefused(await add({ name: 'n', count: 0 }));
    expectRefused(await add({ name: 'n', count: null }));
    for (const url of ['/api/user/abc', '/api/redemption/abc']) expectRefused(await root.get(url));
    expectRefused(await root.delete('/api/redemption/abc/'));
    expectRefused(await user.post('/api/user/topup', { key: '' }));
    expectRefused(await user.post('/api/user/aff_transfer', { quota: null }));
  });
});

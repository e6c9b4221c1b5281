import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PricingList } from '../../src/console/pricing/pricing-list.ts';
import { priceTablesOf } from '../../src/relay/stages/price-request.ts';
import { buildTestApp, type ConsoleClient, type TestApp } from '../helper.ts';
import { createUser, expectOk, ROOT_PASSWORD, setOption } from './console-support.ts';

// GET /api/pricing: entries per model with an enabled ability, the caller's group ratios and
// usable groups (anonymous, vip and svip users), cache invalidation and bad credentials.

describe('GET /api/pricing', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let vipUser: ConsoleClient;
  let svipUser: ConsoleClient;
  let svipId: number;
  let disabledChannel: number;

  const pricing = async (client: ConsoleClient, headers?: Record<string, string>) => {
    const response = await client.get('/api/pricing', headers);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.success).toBe(true);
    return body as {
      data: Array<Record<string, unknown>>;
      group_ratio: Record<string, number>;
      usable_group: Record<string, string>;
    };
  };
  const createChannel = async (name: string, group: string, models: string, status = 1) =>
    expectOk(await root.post('/api/channel/', { name, type: 1, key: 'sk-x', models, group, status }))[0]
      .id as number;
  const setGroup = async (id: number, group: string) => expectOk(await root.put('/api/user/', { id, group }));

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', ROOT_PASSWORD);
    await setOption(root, 'GroupRatio', JSON.stringify({ default: 1, vip: 0.5, svip: 2, internal: 0.1 }));
    await setOption(root, 'UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'VIP 分组' }));
    await setOption(root, 'ModelRatio', JSON.stringify({ 'model-ratio-a': 2, 'gpt-4o-mini': 0.075 }));
    await setOption(root, 'CompletionRatio', JSON.stringify({ 'model-ratio-a': 3 }));
    await setOption(root, 'ModelPrice', JSON.stringify({ 'model-per-call': 0.05 }));
    await createChannel('one', 'default,vip', 'model-ratio-a,model-per-call');
    await createChannel('two', 'svip,internal', 'model-ratio-a,model-unpriced');
    disabledChannel = await createChannel('three', 'default', 'model-disabled-only', 2);
    const vipId = await createUser(root, 'vipuser');
    svipId = await createUser(root, 'svipuser');
    await setGroup(vipId, 'vip');
    await setGroup(svipId, 'svip');
    vipUser = await t.login('vipuser', 'password123');
    svipUser = await t.login('svipuser', 'password123');
  });
  afterAll(async () => t.close());

  const expectedEntries = [
    {
      model_name: 'model-per-call',
      quota_type: 1,
      model_ratio: 0,
      model_price: 0.05,
      owner_by: '',
      completion_ratio: 0,
      enable_groups: ['default', 'vip'],
    },
    {
      model_name: 'model-ratio-a',
      quota_type: 0,
      model_ratio: 2,
      model_price: 0,
      owner_by: '',
      completion_ratio: 3,
      enable_groups: ['default', 'internal', 'svip', 'vip'],
    },
    {
      model_name: 'model-unpriced',
      quota_type: 0,
      model_ratio: 37.5,
      model_price: 0,
      owner_by: '',
      completion_ratio: 1,
      enable_groups: ['internal', 'svip'],
    },
  ];

  it('lists one entry per model with an enabled ability and the default groups for anonymous callers', async () => {
    const body = await pricing(t.anonymous());
    expect(body.data).toEqual(expectedEntries);
    expect(body.group_ratio).toEqual({ default: 1, vip: 0.5 });
    expect(body.usable_group).toEqual({ default: '默认分组', vip: 'VIP 分组' });
    expect(Object.keys(body).sort()).toEqual(['data', 'group_ratio', 'message', 'success', 'usable_group']);
  });

  it("adds a logged-in user's own group, and only the groups usable by the caller", async () => {
    const vip = await pricing(vipUser);
    expect(vip.data).toEqual(expectedEntries);
    expect(vip.group_ratio).toEqual({ default: 1, vip: 0.5 });
    const svip = await pricing(svipUser);
    expect(svip.data).toEqual(expectedEntries);
    expect(svip.group_ratio).toEqual({ default: 1, vip: 0.5, svip: 2 });
    expect(svip.usable_group).toEqual({ default: '默认分组', vip: 'VIP 分组', svip: '用户分组' });
    expect(svip.group_ratio).not.toHaveProperty('internal');
    // An access token works as well as the session cookie.
    const token = expectOk(await svipUser.get('/api/user/token'));
    const viaToken = await pricing(t.anonymous(), { authorization: token });
    expect(viaToken.group_ratio).toEqual({ default: 1, vip: 0.5, svip: 2 });
  });

  it('treats bad credentials and banned users as anonymous, never as an error', async () => {
    const anonymousView = { default: 1, vip: 0.5 };
    expect((await pricing(t.anonymous(), { cookie: 'session=garbage' })).group_ratio).toEqual(anonymousView);
    expect((await pricing(t.anonymous(), { authorization: 'Bearer not-a-token' })).group_ratio).toEqual(
      anonymousView,
    );
    expect((await pricing(t.anonymous(), { authorization: 'x'.repeat(500) })).group_ratio).toEqual(
      anonymousView,
    );
    expect((await pricing(svipUser, { 'new-api-user': 'abc' })).group_ratio).toHaveProperty('svip');
    expectOk(await root.post('/api/user/manage', { id: svipId, action: 'disable' }));
    try {
      expect((await pricing(svipUser)).group_ratio).toEqual(anonymousView);
    } finally {
      expectOk(await root.post('/api/user/manage', { id: svipId, action: 'enable' }));
    }
  });

  it('drops the cached list at once when channels or prices change', async () => {
    await pricing(t.anonymous());
    const added = await createChannel('four', 'vip', 'model-new');
    expect((await pricing(t.anonymous())).data.map((entry) => entry.model_name)).toContain('model-new');
    expectOk(await root.put('/api/channel/', { id: disabledChannel, status: 1 }));
    const enabled = await pricing(t.anonymous());
    expect(enabled.data.find((entry) => entry.model_name === 'model-disabled-only')).toMatchObject({
      enable_groups: ['default'],
      model_ratio: 37.5,
    });
    await setOption(
      root,
      'ModelPrice',
      JSON.stringify({ 'model-per-call': 0.05, 'model-disabled-only': 0.2 }),
    );
    expect(
      (await pricing(t.anonymous())).data.find((entry) => entry.model_name === 'model-disabled-only'),
    ).toMatchObject({ quota_type: 1, model_price: 0.2, model_ratio: 0, completion_ratio: 0 });
    expectOk(await root.delete(`/api/channel/${added}`));
    expectOk(await root.put('/api/channel/', { id: disabledChannel, status: 2 }));
    await setOption(root, 'ModelPrice', JSON.stringify({ 'model-per-call': 0.05 }));
    expect((await pricing(t.anonymous())).data).toEqual(expectedEntries);
  });

  it('serves a computed list for up to 60 s without reading the database again', async () => {
    let now = 1_000_000;
    const list = new PricingList(
      t.app.services.database,
      () => priceTablesOf(t.app.services.options),
      () => now,
    );
    const first = await list.entries();
    expect(first).toEqual(expectedEntries);
    // A change the change bus does not announce (another node without Redis).
    await t.app.services.database.db
      .insertInto('abilities')
      .values({ group: 'default', model: 'model-sneaky', channel_id: 99_999, enabled: 1 })
      .execute();
    try {
      now += 59_000;
      expect(await list.entries()).toBe(first);
      now += 1_000;
      expect((await list.entries()).map((entry) => entry.model_name)).toContain('model-sneaky');
      const [a, b] = await Promise.all([list.entries(), list.entries()]);
      expect(a).toBe(b);
      list.invalidate();
      expect(await list.entries()).not.toBe(a);
    } finally {
      await t.app.services.database.db.deleteFrom('abilities').where('model', '=', 'model-sneaky').execute();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../helper.ts';

// Create, list, search, get and key routes of /api/token. Updates, status rules, deletion and
// isolation are in tokens-update.test.ts.

const PASSWORD = 'password123';
/** A key as lists, get and update replies send it: the stored 48 characters, no `sk-`. */
const STORED_KEY = /^[0-9a-zA-Z]{48}$/;
const FULL_KEY = /^sk-[0-9a-zA-Z]{48}$/;
const nowSeconds = () => Math.floor(Date.now() / 1000);

type Created = Array<{ id: number; name: string; key: string }>;

function expectRefused(response: { statusCode: number; json(): unknown }, message?: string | RegExp) {
  expect(response.statusCode).toBeLessThan(500);
  const body = response.json() as { success: boolean; message: string };
  expect(body.success).toBe(false);
  if (typeof message === 'string') expect(body.message).toBe(message);
  else if (message) expect(body.message).toMatch(message);
  return body;
}

describe('tokens: create, list, search, get, key', () => {
  let t: TestApp;
  let root: ConsoleClient;

  const createUser = async (username: string) => {
    const created = envelope(await root.post('/api/user/', { username, password: PASSWORD }));
    expect(created.success, created.message).toBe(true);
    return t.login(username, PASSWORD);
  };
  const create = async (client: ConsoleClient, body: Record<string, unknown>): Promise<Created> => {
    const reply = envelope(await client.post('/api/token/', body));
    expect(reply.success, reply.message).toBe(true);
    return reply.data;
  };

  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', '123456');
  });
  afterAll(async () => t.close());

  it('refuses anonymous callers with 401', async () => {
    const anonymous = t.anonymous();
    for (const response of [
      await anonymous.get('/api/token/'),
      await anonymous.get('/api/token/search?keyword=a'),
      await anonymous.get('/api/token/1'),
      await anonymous.post('/api/token/', { name: 'x' }),
      await anonymous.post('/api/token/1/key'),
      await anonymous.put('/api/token/', { id: 1, name: 'x' }),
      await anonymous.delete('/api/token/1'),
    ]) {
      expect(response.statusCode).toBe(401);
      expect(response.json().success).toBe(false);
    }
  });

  it('creates one token with defaults and returns its full key once', async () => {
    const alice = await createUser('alice');
    const events: string[] = [];
    t.app.services.bus.subscribe((topic, detail) => events.push(`${topic}:${detail}`));
    const [token] = await create(alice, { name: 'first' });
    expect(token).toMatchObject({ name: 'first' });
    expect(token!.key).toMatch(FULL_KEY);
    expect(events).toContain(`tokens:${token!.id}`);

    const stored = await t.app.services.tokens.findById(token!.id);
    expect(stored).toMatchObject({
      user_id: alice.userId,
      key: token!.key.slice(3),
      name: 'first',
      status: 1,
      remain_quota: 0,
      unlimited_quota: false,
      expired_time: -1,
      model_limits_enabled: false,
      model_limits: '',
      allow_ips: '',
      group: '',
      deleted_at: null,
    });
    expect(stored!.created_time).toBeGreaterThanOrEqual(nowSeconds() - 5);
    // The relay looks keys up without the prefix.
    expect((await t.app.services.tokens.findByKey(token!.key.slice(3)))?.id).toBe(token!.id);
    expect(await t.app.services.tokens.findByKey(token!.key)).toBeUndefined();
  });

  it('creates a batch: the first keeps the name, the others get -XXXXXX, keys differ', async () => {
    const bob = await createUser('bob');
    const tokens = await create(bob, { name: 'batch', count: 3, remain_quota: 500_000 });
    expect(tokens).toHaveLength(3);
    expect(tokens[0]!.name).toBe('batch');
    for (const token of tokens.slice(1)) expect(token.name).toMatch(/^batch-[0-9a-zA-Z]{6}$/);
    expect(new Set(tokens.map((token) => token.key)).size).toBe(3);
    for (const token of tokens) expect(token.key).toMatch(FULL_KEY);

    const refusedZero = expectRefused(await bob.post('/api/token/', { name: 'zero', count: 0 }));
    expect(refusedZero.message).toContain('创建数量');
    expectRefused(await bob.post('/api/token/', { name: 'neg', count: -2 }));
    expectRefused(await bob.post('/api/token/', { name: 'frac', count: 1.5 }));
    expectRefused(await bob.post('/api/token/', { name: 'text', count: '2' }));
  });

  it('caps count at 100 and says so', async () => {
    const carol = await createUser('carol');
    const reply = envelope(await carol.post('/api/token/', { name: 'many', count: 150 }));
    expect(reply.success).toBe(true);
    expect(reply.data).toHaveLength(100);
    expect(reply.message).toContain('100');
    expect(envelope(await carol.get('/api/token/?p=0&size=100')).data).toHaveLength(100);
    expect(envelope(await carol.get('/api/token/?p=1&size=100')).data).toEqual([]);
  });

  it('checks the name: required, at most 30 characters, room for the batch suffix', async () => {
    const dave = await createUser('dave');
    expectRefused(await dave.post('/api/token/', {}), '令牌名称不能为空');
    expectRefused(await dave.post('/api/token/', { name: '   ' }), '令牌名称不能为空');
    expectRefused(await dave.post('/api/token/', { name: 'x'.repeat(31) }), '令牌名称过长');
    expectRefused(await dave.post('/api/token/', { name: 42 }));
    const [thirty] = await create(dave, { name: 'x'.repeat(30) });
    expect(thirty!.name).toHaveLength(30);
    const [cjk] = await create(dave, { name: '令'.repeat(30) });
    expect(cjk!.name).toBe('令'.repeat(30));
    const [trimmed] = await create(dave, { name: '  spaced  ' });
    expect(trimmed!.name).toBe('spaced');
    // Suffixed names must stay within 30 characters too.
    expectRefused(await dave.post('/api/token/', { name: 'y'.repeat(24), count: 2 }), /令牌名称过长/);
    const pair = await create(dave, { name: 'y'.repeat(23), count: 2 });
    expect(pair[1]!.name).toHaveLength(30);
  });

  it('validates quota, expiry, IP allow list, model limits and group', async () => {
    const erin = await createUser('erin');
    expectRefused(await erin.post('/api/token/', { name: 'q', remain_quota: -1 }), '额度不能为负数');
    expectRefused(await erin.post('/api/token/', { name: 'q', remain_quota: 1.5 }));
    expectRefused(await erin.post('/api/token/', { name: 'q', remain_quota: '100' }));
    expectRefused(await erin.post('/api/token/', { name: 'q', remain_quota: 1e16 }), '额度过大');
    expectRefused(await erin.post('/api/token/', { name: 'q', unlimited_quota: 'true' }));
    expectRefused(await erin.post('/api/token/', { name: 'q', model_limits_enabled: 1 }));

    const past = nowSeconds() - 60;
    expectRefused(
      await erin.post('/api/token/', { name: 'e', expired_time: past }),
      '过期时间不能早于当前时间',
    );
    expectRefused(await erin.post('/api/token/', { name: 'e', expired_time: 0 }), '过期时间格式错误！');
    expectRefused(await erin.post('/api/token/', { name: 'e', expired_time: -5 }), '过期时间格式错误！');
    expectRefused(await erin.post('/api/token/', { name: 'e', expired_time: Date.now() + 60_000 }));
    expectRefused(await erin.post('/api/token/', { name: 'e', expired_time: nowSeconds() + 0.5 }));
    expectRefused(await erin.post('/api/token/', { name: 'e', expired_time: '2030-01-01 00:00:00' }));

    for (const bad of ['not-an-ip', '10.0.0.0/33', '1.2.3.4/abc', '1.2.3.4\n300.1.1.1', '::1/129']) {
      expectRefused(await erin.post('/api/token/', { name: 'ip', allow_ips: bad }), /IP 白名单格式错误/);
    }
    expectRefused(await erin.post('/api/token/', { name: 'g', group: 'svip' }), '无权使用该分组');
    expectRefused(await erin.post('/api/token/', { name: 'g', group: 'nope' }), '无权使用该分组');

    const future = nowSeconds() + 3600;
    const [full] = await create(erin, {
      name: 'full',
      remain_quota: 5_000_000,
      unlimited_quota: true,
      expired_time: future,
      model_limits_enabled: true,
      model_limits: ' gpt-4o , gpt-4o,,claude-3-haiku ,',
      allow_ips: '1.2.3.4\n\n  10.0.0.0/8 \r\n2001:db8::/32\n::1\n1.2.3.4',
      group: 'vip',
    });
    const view = envelope(await erin.get(`/api/token/${full!.id}`)).data;
    expect(view).toMatchObject({
      name: 'full',
      remain_quota: 5_000_000,
      unlimited_quota: true,
      expired_time: future,
      model_limits_enabled: true,
      model_limits: 'gpt-4o,claude-3-haiku',
      allow_ips: '1.2.3.4\n10.0.0.0/8\n2001:db8::/32\n::1',
      group: 'vip',
      status: 1,
    });
    const [unrestricted] = await create(erin, {
      name: 'open',
      allow_ips: ' \n ',
      group: '',
      expired_time: -1,
    });
    expect((await t.app.services.tokens.findById(unrestricted!.id))?.allow_ips).toBe('');
    const [nullIps] = await create(erin, { name: 'null-ips', allow_ips: null, group: 'default' });
    expect(await t.app.services.tokens.findById(nullIps!.id)).toMatchObject({
      allow_ips: '',
      group: 'default',
    });
  });

  it('lists own tokens newest first as a bare array: p from 0, clamped size, stored keys', async () => {
    const frank = await createUser('frank');
    const created = await create(frank, { name: 'page', count: 12 });
    const ids = created.map((token) => token.id).sort((a, b) => b - a);
    const idsOf = (data: Array<{ id: number }>) => data.map((item) => item.id);

    const first = envelope(await frank.get('/api/token/?p=0&size=5'));
    expect(first.success).toBe(true);
    expect(idsOf(first.data)).toEqual(ids.slice(0, 5));
    expect(idsOf(envelope(await frank.get('/api/token/?p=2&size=5')).data)).toEqual(ids.slice(10));
    expect(envelope(await frank.get('/api/token/?p=3&size=5')).data).toEqual([]);

    expect(envelope(await frank.get('/api/token/')).data).toHaveLength(10);
    expect(envelope(await frank.get('/api/token/?size=0')).data).toHaveLength(10);
    expect(envelope(await frank.get('/api/token/?size=-4')).data).toHaveLength(10);
    const big = envelope(await frank.get('/api/token/?size=1000')).data;
    expect(big).toHaveLength(12);
    expect(idsOf(envelope(await frank.get('/api/token/?p=-3&size=5')).data)).toEqual(ids.slice(0, 5));
    // Non-integer paging reads as 0, as Go's strconv.Atoi does in the reference.
    expect(idsOf(envelope(await frank.get('/api/token/?p=&size=')).data)).toEqual(ids.slice(0, 10));
    expect(idsOf(envelope(await frank.get('/api/token/?p=abc&size=5')).data)).toEqual(ids.slice(0, 5));

    const byId = new Map(created.map((token) => [token.id, token.key]));
    for (const item of big as Array<{ id: number; key: string; user_id: number }>) {
      expect(item.key).toMatch(STORED_KEY);
      expect(`sk-${item.key}`).toBe(byId.get(item.id));
      expect(item.user_id).toBe(frank.userId);
    }
    // Only the caller's tokens appear.
    expect(envelope(await root.get('/api/token/?size=100')).data).toEqual([]);
  });

  it('searches own tokens by name and by key fragment', async () => {
    const grace = await createUser('grace');
    const [alpha] = await create(grace, { name: 'alpha-prod' });
    const [beta] = await create(grace, { name: 'beta-prod' });
    await create(grace, { name: 'gamma_test' });
    const search = async (query: string) => {
      const reply = envelope(await grace.get(`/api/token/search?${query}`));
      expect(reply.success, reply.message).toBe(true);
      return (reply.data as Array<{ id: number; name: string; key: string }>).map((item) => item.name);
    };

    expect((await search('keyword=prod')).sort()).toEqual(['alpha-prod', 'beta-prod']);
    expect(await search('keyword=alpha')).toEqual(['alpha-prod']);
    expect(await search(`keyword=${encodeURIComponent('%')}`)).toEqual([]);
    expect(await search('keyword=m_a')).toEqual([]);
    expect(await search('keyword=a_test')).toEqual(['gamma_test']);
    expect((await search('')).length).toBe(3);

    const fragment = beta!.key.slice(10, 30);
    expect(await search(`token=${fragment}`)).toEqual(['beta-prod']);
    expect(await search(`token=${beta!.key.slice(0, 20)}`)).toEqual(['beta-prod']);
    expect(await search(`keyword=alpha&token=${fragment}`)).toEqual([]);
    // A masked key copied from the list finds its token.
    const masked = `sk-${beta!.key.slice(3, 7)}**********${beta!.key.slice(-4)}`;
    expect(await search(`token=${encodeURIComponent(masked)}`)).toEqual(['beta-prod']);
    expect(await search(`keyword=alpha&token=${alpha!.key.slice(5, 25)}`)).toEqual(['alpha-prod']);

    const reply = envelope(await grace.get('/api/token/search?keyword=prod'));
    expect(reply.data).toHaveLength(2);
    for (const item of reply.data) expect(item.key).toMatch(STORED_KEY);
    expect(envelope(await grace.get('/api/token/search?keyword=prod&size=1')).data).toHaveLength(1);
    // Another user's search never reaches grace's tokens.
    expect(envelope(await root.get(`/api/token/search?token=${fragment}`)).data).toEqual([]);
  });

  it('gets one own token with its stored key, and the full key on request', async () => {
    const heidi = await createUser('heidi');
    const [token] = await create(heidi, { name: 'secret' });
    const view = envelope(await heidi.get(`/api/token/${token!.id}`));
    expect(view.success).toBe(true);
    expect(view.data).toMatchObject({ id: token!.id, name: 'secret', status: 1 });
    expect(view.data.key).toMatch(STORED_KEY);
    expect(`sk-${view.data.key}`).toBe(token!.key);
    expect(view.data.deleted_at).toBeUndefined();

    const key = envelope(await heidi.post(`/api/token/${token!.id}/key`));
    expect(key).toMatchObject({ success: true, data: { id: token!.id, key: token!.key } });

    expectRefused(await heidi.get('/api/token/999999'), '令牌不存在');
    expectRefused(await heidi.post('/api/token/999999/key'), '令牌不存在');
    expectRefused(await heidi.get('/api/token/abc'));
    expectRefused(await heidi.get('/api/token/0'));
    expectRefused(await heidi.get('/api/token/99999999999'));
  });
});

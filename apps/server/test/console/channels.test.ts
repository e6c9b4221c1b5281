import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../helper.ts';
import {
  abilitiesOf,
  channelBody,
  channelRow,
  clearChannels,
  createChannel,
  createChannels,
  expectedAbilities,
  loginAs,
} from './channels-support.ts';

describe('channels API: create, validation, models, access', () => {
  let t: TestApp;
  let root: ConsoleClient;
  const published: string[] = [];
  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', '123456');
    t.app.services.bus.subscribe((topic, detail) => {
      if (topic === 'channels') published.push(detail);
    });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    await clearChannels(t);
    published.length = 0;
  });

  it('creates one channel with the defaults, its abilities, and no key in the reply', async () => {
    const before = Math.floor(Date.now() / 1000);
    const response = await root.post('/api/channel/', channelBody());
    expect(response.body).not.toContain('sk-secret-key-0001');
    const reply = envelope(response);
    expect(reply.success).toBe(true);
    expect(reply.data).toHaveLength(1);
    const view = reply.data[0];
    expect(view).not.toHaveProperty('key');
    expect(view).toMatchObject({
      name: 'main',
      type: 1,
      auto_ban: 1,
      group: 'default',
      priority: 0,
      weight: 0,
      status: 1,
      models: 'gpt-4o,gpt-4o-mini',
      tag: '',
      other_info: '',
    });
    const row = await channelRow(t, view.id);
    expect(row).toMatchObject({ key: 'sk-secret-key-0001', type: 1, status: 1, group: 'default', tag: null });
    expect(Number(row!.created_time)).toBeGreaterThanOrEqual(before);
    expect(await abilitiesOf(t, view.id)).toEqual(expectedAbilities(['default'], ['gpt-4o', 'gpt-4o-mini']));
    expect(published).toEqual([String(view.id)]);
  });

  it('normalizes models, groups, base URL, weight, tag and the type-18 version', async () => {
    const id = await createChannel(root, {
      type: 18,
      models: ' a , b,a ,, ',
      group: ' vip, default ,vip,',
      base_url: 'https://upstream.example/v1///',
      weight: -5,
      priority: 7,
      tag: ' team ',
      model_mapping: '{"a":"b"}',
      status_code_mapping: '',
      setting: ' {"force_format":true} ',
      auto_ban: 0,
      max_input_tokens: 4096,
      openai_organization: 'org-1',
      test_model: 'a',
    });
    const row = await channelRow(t, id);
    expect(row).toMatchObject({
      type: 18,
      other: 'v2.1',
      models: 'a,b',
      group: 'vip,default',
      base_url: 'https://upstream.example/v1',
      weight: 0,
      tag: 'team',
      model_mapping: '{"a":"b"}',
      setting: '{"force_format":true}',
      auto_ban: 0,
      max_input_tokens: 4096,
      openai_organization: 'org-1',
      test_model: 'a',
    });
    expect(Number(row!.priority)).toBe(7);
    expect(await abilitiesOf(t, id)).toEqual(
      expectedAbilities(['vip', 'default'], ['a', 'b'], { priority: 7, tag: 'team' }),
    );
  });

  it('creates one channel per non-empty key line in batch mode, named name, name_2, ...', async () => {
    const ids = await createChannels(
      root,
      channelBody({ mode: 'batch', key: 'k-one\n\n  k-two  \r\nk-three\n', group: 'default,vip', status: 2 }),
    );
    expect(ids).toHaveLength(3);
    const rows = await Promise.all(ids.map((id) => channelRow(t, id)));
    expect(rows.map((row) => [row!.name, row!.key])).toEqual([
      ['main', 'k-one'],
      ['main_2', 'k-two'],
      ['main_3', 'k-three'],
    ]);
    for (const id of ids) {
      expect(await abilitiesOf(t, id)).toEqual(
        expectedAbilities(['default', 'vip'], ['gpt-4o', 'gpt-4o-mini'], { enabled: 0 }),
      );
    }
    expect(published).toEqual(ids.map(String));
  });

  it('keeps a multi-line key whole in single mode and never splits Vertex keys', async () => {
    const single = await createChannel(root, { key: 'line-1\nline-2' });
    expect((await channelRow(t, single))!.key).toBe('line-1\nline-2');
    const vertexKey = '{\n  "type": "service_account",\n  "project_id": "p"\n}';
    const ids = await createChannels(root, channelBody({ type: 41, mode: 'batch', key: vertexKey }));
    expect(ids).toHaveLength(1);
    expect((await channelRow(t, ids[0]!))!.key).toBe(vertexKey);
  });

  it('writes large abilities sets in chunks', async () => {
    const models = Array.from({ length: 120 }, (_, index) => `model-${index}`);
    const id = await createChannel(root, { models: models.join(','), group: 'default,vip' });
    expect(await abilitiesOf(t, id)).toEqual(expectedAbilities(['default', 'vip'], models));
  });

  it("accepts new-api's nested {mode, channel} body", async () => {
    const ids = await createChannels(root, {
      mode: 'batch',
      channel: { name: 'nested', key: 'a\nb', models: 'm1', tag: null, other: null },
    });
    expect(ids).toHaveLength(2);
    expect((await channelRow(t, ids[1]!))!.name).toBe('nested_2');
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['no name', { name: '' }, '请填写渠道名称和渠道密钥！'],
    ['blank name', { name: '   ' }, '请填写渠道名称和渠道密钥！'],
    ['no key', { key: undefined }, '请填写渠道名称和渠道密钥！'],
    ['blank key lines', { mode: 'batch', key: '\n  \n' }, '请填写渠道名称和渠道密钥！'],
    ['no models', { models: '' }, '请至少选择一个模型！'],
    ['only commas', { models: ' , ,' }, '请至少选择一个模型！'],
    ['mapping not JSON', { model_mapping: '{a:1}' }, '模型映射必须是合法的 JSON 格式！'],
    ['mapping an array', { model_mapping: '[1]' }, '模型映射必须是合法的 JSON 格式！'],
    ['status code mapping', { status_code_mapping: 'x' }, '状态码映射必须是合法的 JSON 格式！'],
    ['setting', { setting: '"text"' }, '渠道额外设置必须是合法的 JSON 格式！'],
    ['param override', { param_override: 'null' }, '参数覆盖必须是合法的 JSON 格式！'],
    ['header override', { header_override: '[' }, '请求头覆盖必须是合法的 JSON 格式！'],
    ['unknown type', { type: 999 }, '未知的渠道类型'],
    ['unused type id', { type: 28 }, '未知的渠道类型'],
    ['priority below -999', { priority: -1000 }, '优先级不能小于 -999'],
    ['group name too long', { group: `default,${'g'.repeat(65)}` }, '分组名称不能超过 64 个字符'],
    ['model name too long', { models: 'm'.repeat(256) }, '模型名称不能超过 255 个字符'],
  ];
  it.each(refusals)('refuses %s with its message', async (_label, overrides, message) => {
    const reply = envelope(await root.post('/api/channel/', channelBody(overrides)));
    expect(reply).toMatchObject({ success: false, message });
    const count = await t.app.services.database.db
      .selectFrom('channels')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirst();
    expect(Number(count!.n)).toBe(0);
  });

  it('checks name and key before models, and models before the mapping', async () => {
    const noName = envelope(await root.post('/api/channel/', { key: 'k', models: '', model_mapping: 'x' }));
    expect(noName.message).toBe('请填写渠道名称和渠道密钥！');
    const noModels = envelope(
      await root.post('/api/channel/', channelBody({ models: '', model_mapping: 'x' })),
    );
    expect(noModels.message).toBe('请至少选择一个模型！');
  });

  it('accepts priority -999 and an explicit 0 weight', async () => {
    const id = await createChannel(root, { priority: -999, weight: 0 });
    expect(Number((await channelRow(t, id))!.priority)).toBe(-999);
  });

  const badBodies: Array<[string, unknown]> = [
    ['priority as text', channelBody({ priority: '5' })],
    ['models as an array', channelBody({ models: ['a'] })],
    ['type as text', channelBody({ type: '1' })],
    ['auto_ban 2', channelBody({ auto_ban: 2 })],
    ['status 7', channelBody({ status: 7 })],
    ['fractional weight', channelBody({ weight: 1.5 })],
    ['key as a number', channelBody({ key: 42 })],
    ['unknown mode', channelBody({ mode: 'many' })],
    ['an array body', [channelBody()]],
    ['a string body', '"x"'],
  ];
  it.each(badBodies)('refuses %s with the envelope, never a 500', async (_label, body) => {
    const response = await root.post('/api/channel/', body as never, { 'content-type': 'application/json' });
    expect(response.statusCode).toBeLessThan(500);
    expect(envelope(response).success).toBe(false);
  });

  it('refuses malformed JSON and an empty body with the envelope', async () => {
    for (const payload of ['{"name":', '']) {
      const response = await root.request('POST', '/api/channel/', payload, {
        'content-type': 'application/json',
      });
      expect(response.statusCode).toBeLessThan(500);
      expect(envelope(response).success).toBe(false);
    }
  });

  it('lists the known models as OpenAI model objects, deduplicated, with option-only models', async () => {
    await t.app.services.options.set('ModelRatio', JSON.stringify({ 'gpt-4o': 1.25, 'my-private-model': 2 }));
    const reply = envelope(await root.get('/api/channel/models'));
    expect(reply.success).toBe(true);
    const models = reply.data as Array<{ id: string; object: string; created: number; owned_by: string }>;
    const ids = models.map((model) => model.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(models.find((model) => model.id === 'gpt-4o')).toEqual({
      id: 'gpt-4o',
      object: 'model',
      created: 1626777600,
      owned_by: 'OpenAI',
    });
    expect(models.find((model) => model.id === 'claude-3-haiku-20240307')?.owned_by).toBe('Anthropic Claude');
    expect(models.find((model) => model.id === 'my-private-model')).toMatchObject({ owned_by: 'custom' });
  });

  it('refuses every channel route to common users and anonymous callers', async () => {
    const id = await createChannel(root);
    const user = await loginAs(t, root, 'plainuser', 1);
    const calls: Array<(client: ConsoleClient) => ReturnType<ConsoleClient['get']>> = [
      (c) => c.get('/api/channel/'),
      (c) => c.get('/api/channel/search?keyword=main'),
      (c) => c.get('/api/channel/models'),
      (c) => c.get(`/api/channel/${id}`),
      (c) => c.post('/api/channel/', channelBody()),
      (c) => c.put('/api/channel/', { id, name: 'stolen' }),
      (c) => c.delete(`/api/channel/${id}/`),
    ];
    for (const call of calls) {
      const asUser = await call(user);
      expect(asUser.statusCode).toBeLessThan(500);
      expect(envelope(asUser)).toMatchObject({ success: false, message: '无权进行此操作，权限不足' });
      const asAnonymous = await call(t.anonymous());
      expect(asAnonymous.statusCode).toBe(401);
      expect(envelope(asAnonymous).success).toBe(false);
    }
    expect((await channelRow(t, id))!.name).toBe('main');
  });
});

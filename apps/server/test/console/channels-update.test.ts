import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildTestApp, type ConsoleClient, envelope, type TestApp } from '../helper.ts';
import {
  abilitiesOf,
  channelRow,
  clearChannels,
  createChannel,
  expectedAbilities,
  loginAs,
} from './channels-support.ts';

describe('channels API: get, update, delete', () => {
  let t: TestApp;
  let root: ConsoleClient;
  let admin: ConsoleClient;
  const published: string[] = [];
  beforeAll(async () => {
    t = await buildTestApp();
    root = await t.login('root', '123456');
    admin = await loginAs(t, root, 'opsadmin', 10);
    t.app.services.bus.subscribe((topic, detail) => {
      if (topic === 'channels') published.push(detail);
    });
  });
  afterAll(async () => t.close());
  beforeEach(async () => {
    await clearChannels(t);
    published.length = 0;
  });

  const update = async (body: Record<string, unknown>) => envelope(await root.put('/api/channel/', body));

  it('gets one channel without its key; only root sees the key with with_key=true', async () => {
    const id = await createChannel(root, { other_info: 'ignored' });
    await t.app.services.database.db
      .updateTable('channels')
      .set({ other_info: '{"status_reason":"slow","status_time":1700000000}' })
      .where('id', '=', id)
      .execute();
    const plain = await admin.get(`/api/channel/${id}`);
    expect(plain.body).not.toContain('sk-secret-key-0001');
    expect(envelope(plain).data).toMatchObject({
      id,
      name: 'main',
      // JSON text as stored: the reference console parses it itself.
      other_info: '{"status_reason":"slow","status_time":1700000000}',
    });
    expect(envelope(plain).data).not.toHaveProperty('key');
    expect(envelope(await root.get(`/api/channel/${id}?with_key=true`)).data.key).toBe('sk-secret-key-0001');
    const refused = envelope(await admin.get(`/api/channel/${id}?with_key=true`));
    expect(refused.success).toBe(false);
    expect(JSON.stringify(refused)).not.toContain('sk-secret-key-0001');

    await t.app.services.database.db
      .updateTable('channels')
      .set({ other_info: 'not json' })
      .where('id', '=', id)
      .execute();
    expect(envelope(await root.get(`/api/channel/${id}`)).data.other_info).toBe('not json');
  });

  it('answers a missing or malformed id with the envelope', async () => {
    for (const url of [
      '/api/channel/999999',
      '/api/channel/abc',
      '/api/channel/0',
      '/api/channel/99999999999',
    ]) {
      const response = await root.get(url);
      expect(response.statusCode).toBeLessThan(500);
      expect(envelope(response).success).toBe(false);
    }
  });

  it('changes only the fields sent and keeps the abilities when none of theirs changed', async () => {
    const id = await createChannel(root, {
      priority: 4,
      weight: 3,
      tag: 'keep',
      base_url: 'https://a.example',
    });
    const reply = await update({ id, name: 'renamed', base_url: 'https://b.example/' });
    expect(reply.success).toBe(true);
    expect(reply.data).toMatchObject({
      id,
      name: 'renamed',
      base_url: 'https://b.example',
      priority: 4,
      weight: 3,
    });
    expect(reply.data).not.toHaveProperty('key');
    const row = await channelRow(t, id);
    expect(row).toMatchObject({ key: 'sk-secret-key-0001', models: 'gpt-4o,gpt-4o-mini', tag: 'keep' });
    expect(await abilitiesOf(t, id)).toEqual(
      expectedAbilities(['default'], ['gpt-4o', 'gpt-4o-mini'], { priority: 4, weight: 3, tag: 'keep' }),
    );
    expect(published).toEqual([String(id), String(id)]);
  });

  it('rebuilds the abilities when models, groups, priority, weight or tag change', async () => {
    const id = await createChannel(root, { priority: 4, weight: 3 });
    await update({ id, models: 'm1, m2 ,m1', group: 'vip,default' });
    expect(await abilitiesOf(t, id)).toEqual(
      expectedAbilities(['vip', 'default'], ['m1', 'm2'], { priority: 4, weight: 3 }),
    );
    // An explicit 0 is applied (the reference ignores zero values).
    const zero = await update({ id, priority: 0, weight: 0, tag: 'night' });
    expect(zero.data).toMatchObject({ priority: 0, weight: 0, tag: 'night' });
    expect(await abilitiesOf(t, id)).toEqual(
      expectedAbilities(['vip', 'default'], ['m1', 'm2'], { tag: 'night' }),
    );
    await update({ id, weight: -8, tag: '' });
    expect(await abilitiesOf(t, id)).toEqual(expectedAbilities(['vip', 'default'], ['m1', 'm2']));
    expect((await channelRow(t, id))!.tag).toBeNull();
    await update({ id, group: '' });
    expect(await abilitiesOf(t, id)).toEqual(expectedAbilities(['default'], ['m1', 'm2']));
  });

  it('flips the abilities on a status-only update and replies with the new status', async () => {
    const id = await createChannel(root, { group: 'default,vip' });
    const disabled = await update({ id, status: 2 });
    expect(disabled).toMatchObject({ success: true, data: { id, status: 2 } });
    expect(await abilitiesOf(t, id)).toEqual(
      expectedAbilities(['default', 'vip'], ['gpt-4o', 'gpt-4o-mini'], { enabled: 0 }),
    );
    await update({ id, status: 3 });
    expect((await abilitiesOf(t, id)).every((row) => row.enabled === 0)).toBe(true);
    const enabled = await update({ id, status: 1, priority: 2 });
    expect(enabled.data).toMatchObject({ status: 1, priority: 2 });
    expect(await abilitiesOf(t, id)).toEqual(
      expectedAbilities(['default', 'vip'], ['gpt-4o', 'gpt-4o-mini'], { priority: 2 }),
    );
  });

  it('replaces the key only when a non-empty key is sent', async () => {
    const id = await createChannel(root);
    await update({ id, key: '' });
    await update({ id, key: '   ' });
    expect((await channelRow(t, id))!.key).toBe('sk-secret-key-0001');
    const response = await root.put('/api/channel/', { id, key: ' sk-new-key ' });
    expect(response.body).not.toContain('sk-new-key');
    expect((await channelRow(t, id))!.key).toBe('sk-new-key');
  });

  it('defaults the type-18 version when switching type or clearing other', async () => {
    const id = await createChannel(root);
    await update({ id, type: 18 });
    expect((await channelRow(t, id))!.other).toBe('v2.1');
    await update({ id, other: 'v3.5' });
    expect((await channelRow(t, id))!.other).toBe('v3.5');
    await update({ id, other: '' });
    expect((await channelRow(t, id))!.other).toBe('v2.1');
  });

  const refusals: Array<[string, Record<string, unknown>, string]> = [
    ['empty name', { name: ' ' }, '请填写渠道名称和渠道密钥！'],
    ['empty models', { models: '' }, '请至少选择一个模型！'],
    ['bad mapping', { model_mapping: 'nope' }, '模型映射必须是合法的 JSON 格式！'],
    ['bad header override', { header_override: '1' }, '请求头覆盖必须是合法的 JSON 格式！'],
    ['unknown type', { type: 7777 }, '未知的渠道类型'],
    ['low priority', { priority: -1000 }, '优先级不能小于 -999'],
  ];
  it.each(refusals)('refuses an update with %s and changes nothing', async (_label, fields, message) => {
    const id = await createChannel(root, { priority: 1 });
    const before = await channelRow(t, id);
    expect(await update({ id, name: 'changed', ...fields })).toMatchObject({ success: false, message });
    expect(await channelRow(t, id)).toEqual(before);
    expect(await abilitiesOf(t, id)).toEqual(
      expectedAbilities(['default'], ['gpt-4o', 'gpt-4o-mini'], { priority: 1 }),
    );
  });

  it('refuses a missing channel and malformed update bodies with the envelope', async () => {
    expect(await update({ id: 424242, name: 'x' })).toMatchObject({ success: false, message: '渠道不存在' });
    for (const body of [
      { name: 'no id' },
      { id: 'one' },
      { id: 1, status: '2' },
      { id: 1, priority: 1.5 },
      [],
    ]) {
      const response = await root.put('/api/channel/', body);
      expect(response.statusCode).toBeLessThan(500);
      expect(envelope(response).success).toBe(false);
    }
  });

  it('deletes a channel with its abilities', async () => {
    const id = await createChannel(root);
    const other = await createChannel(root, { name: 'other' });
    published.length = 0;
    expect(envelope(await root.delete(`/api/channel/${id}/`))).toMatchObject({ success: true });
    expect(await channelRow(t, id)).toBeUndefined();
    expect(await abilitiesOf(t, id)).toEqual([]);
    expect(await abilitiesOf(t, other)).toHaveLength(2);
    expect(published).toEqual([String(id)]);
    expect(envelope(await root.delete(`/api/channel/${id}`))).toMatchObject({
      success: false,
      message: '渠道不存在',
    });
    const malformed = await root.delete('/api/channel/x/');
    expect(malformed.statusCode).toBeLessThan(500);
    expect(envelope(malformed).success).toBe(false);
  });

  it('gives the relay the enabled channels with keys and finds one by id with its key', async () => {
    const enabled = await createChannel(root, { tag: 'r', group: 'default,vip' });
    const disabled = await createChannel(root, { name: 'off', status: 2 });
    const index = await t.app.services.channels.listEnabledForIndex();
    expect(index.map((channel) => channel.id)).toEqual([enabled]);
    expect(index[0]).toMatchObject({ key: 'sk-secret-key-0001', group: 'default,vip', tag: 'r', type: 1 });
    expect((await t.app.services.channels.findById(disabled))?.key).toBe('sk-secret-key-0001');
    expect(await t.app.services.channels.findById(-1)).toBeUndefined();
  });
});

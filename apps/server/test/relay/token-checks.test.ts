import { TokenStatus } from '@switchyard/shared';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import {
  chatBody,
  createChannel,
  createCommonUser,
  createToken,
  eventually,
  expectOpenAIError,
  type RelayFixture,
  relayPost,
  setOption,
  settledLogs,
  startRelayFixture,
  tokenRow,
  updateChannel,
  userBalance,
} from './relay-support.ts';

const hello = chatBody('gpt-4o-mini', 'hello');

describe('relay token and user checks (reference §2.4–2.5)', () => {
  let f: RelayFixture;
  let channelId: number;
  let rootKey: string;

  beforeAll(async () => {
    f = await startRelayFixture();
    channelId = await createChannel(f, { group: 'default,vip' });
    rootKey = (await createToken(f.root)).key;
  });
  afterAll(async () => f.close());

  it('refuses a missing key and an unknown key with 401', async () => {
    const missing = await relayPost(f, null, hello);
    expect(expectOpenAIError(missing, 401, '未提供令牌').type).toBeTruthy();
    expectOpenAIError(await relayPost(f, 'sk-thisisnotarealkey', hello), 401, '无效的令牌');
    const requestId = missing.headers.get('x-oneapi-request-id');
    expect(requestId).toBeTruthy();
    expect(missing.json.error.message).toContain(`(request id: ${requestId})`);
  });

  it('answers through the official SDK with a valid key', async () => {
    const client = new OpenAI({ apiKey: rootKey, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create(hello as never);
    expect(completion.choices[0]?.message.content).toContain('Hello from mock gpt-4o-mini');
  });

  it('refuses a disabled token at once after the change (the token cache is invalidated)', async () => {
    const token = await createToken(f.root, { name: 'to disable' });
    expect((await relayPost(f, token.key, hello)).status).toBe(200);
    const reply = envelope(await f.root.put('/api/token/?status_only=true', { id: token.id, status: 2 }));
    expect(reply.success).toBe(true);
    expectOpenAIError(await relayPost(f, token.key, hello), 401, '该令牌状态不可用');
  });

  it('refuses an expired token and marks it expired (status 3)', async () => {
    const token = await createToken(f.root, { name: 'expiring' });
    await f.t.app.services.database.db
      .updateTable('tokens')
      .set({ expired_time: Math.floor(Date.now() / 1000) - 60 })
      .where('id', '=', token.id)
      .execute();
    expectOpenAIError(await relayPost(f, token.key, hello), 401, '该令牌已过期');
    await eventually(
      () => tokenRow(f, token.id),
      (row) => row.status === TokenStatus.Expired,
    );
    expectOpenAIError(await relayPost(f, token.key, hello), 401, '该令牌已过期');
  });

  it('refuses a limited token with no quota left and marks it exhausted (status 4)', async () => {
    const token = await createToken(f.root, { name: 'empty', unlimited_quota: false, remain_quota: 0 });
    const before = f.mock.requests.length;
    expectOpenAIError(await relayPost(f, token.key, hello), 401, '该令牌额度已用尽');
    await eventually(
      () => tokenRow(f, token.id),
      (row) => row.status === TokenStatus.Exhausted,
    );
    expect(f.mock.requests.length).toBe(before);
  });

  it('refuses a banned user on the very next call (the change bus drops the cached user)', async () => {
    const user = await createCommonUser(f, 'banme', 1_000_000);
    const { key } = await createToken(user.client);
    expect((await relayPost(f, key, hello)).status).toBe(200);
    const banned = envelope(await f.root.post('/api/user/manage', { id: user.id, action: 'disable' }));
    expect(banned.success).toBe(true);
    expectOpenAIError(await relayPost(f, key, hello), 403, '用户已被封禁');
    expect(envelope(await f.root.post('/api/user/manage', { id: user.id, action: 'enable' })).success).toBe(
      true,
    );
    expect((await relayPost(f, key, hello)).status).toBe(200);
  });

  it('applies the token IP allow-list (CIDR and single address)', async () => {
    const token = await createToken(f.root, { name: 'ip bound', allow_ips: '10.0.0.0/8' });
    expectOpenAIError(await relayPost(f, token.key, hello), 403, 'IP');
    const changed = envelope(await f.root.put('/api/token/', { id: token.id, allow_ips: '127.0.0.1' }));
    expect(changed.success).toBe(true);
    expect((await relayPost(f, token.key, hello)).status).toBe(200);
  });

  it('applies token model limits to the requested model name', async () => {
    const { key } = await createToken(f.root, { model_limits_enabled: true, model_limits: 'gpt-4o' });
    expectOpenAIError(await relayPost(f, key, hello), 403, '该令牌无权访问模型 gpt-4o-mini');
    expect((await relayPost(f, key, chatBody('gpt-4o', 'hello'))).status).toBe(200);
  });

  it('refuses a token whose group is no longer usable, or no longer priced', async () => {
    const { key } = await createToken(f.root, { name: 'vip token', group: 'vip' });
    expect((await relayPost(f, key, hello)).status).toBe(200);
    expect((await settledLogs(f)).at(-1)?.group).toBe('vip');
    await setOption(f, 'UserUsableGroups', JSON.stringify({ default: '默认分组' }));
    try {
      expectOpenAIError(await relayPost(f, key, hello), 403, '令牌分组 vip 已被禁用');
      await setOption(f, 'GroupRatio', JSON.stringify({ default: 1, svip: 1 }));
      expectOpenAIError(await relayPost(f, key, hello), 403, '分组 vip 已被弃用');
    } finally {
      await setOption(f, 'GroupRatio', JSON.stringify({ default: 1, vip: 1, svip: 1 }));
      await setOption(f, 'UserUsableGroups', JSON.stringify({ default: '默认分组', vip: 'vip分组' }));
    }
    expect((await relayPost(f, key, hello)).status).toBe(200);
  });

  it('lets an admin token pin a channel with sk-<key>-<channelId>', async () => {
    const other = await createChannel(f, { name: 'pinned', key: 'sk-pinned-channel' });
    for (let i = 0; i < 4; i++) {
      const reply = await relayPost(f, `${rootKey}-${other}`, hello);
      expect(reply.status, reply.text).toBe(200);
      expect(f.mock.lastRequest()?.headers.authorization).toBe('Bearer sk-pinned-channel');
      expect((await settledLogs(f)).at(-1)?.channel_id).toBe(other);
    }
    // Without the suffix, the same key routes normally over both channels.
    expect((await relayPost(f, rootKey, hello)).status).toBe(200);

    await updateChannel(f, other, { status: 2 });
    const before = await userBalance(f, 1);
    const mockCalls = f.mock.requests.length;
    expectOpenAIError(await relayPost(f, `${rootKey}-${other}`, hello), 403, '指定的渠道不存在或已被禁用');
    expect(f.mock.requests.length).toBe(mockCalls);
    expect((await userBalance(f, 1)).quota).toBe(before.quota);
    expect(channelId).not.toBe(other);
  });

  it("refuses channel pinning for a common user's token", async () => {
    const user = await createCommonUser(f, 'pinner', 1_000_000);
    const { key } = await createToken(user.client);
    expectOpenAIError(await relayPost(f, `${key}-${channelId}`, hello), 403, '普通用户不支持指定渠道');
    expect((await relayPost(f, key, hello)).status).toBe(200);
  });

  it('refuses a call whose reservation exceeds the user quota, before any upstream call', async () => {
    const user = await createCommonUser(f, 'poor', 50);
    const { key } = await createToken(user.client);
    const before = await userBalance(f, user.id);
    const mockCalls = f.mock.requests.length;
    const error = expectOpenAIError(await relayPost(f, key, hello), 403, '额度不足');
    expect(String(error.code)).toContain('quota');
    expect(f.mock.requests.length).toBe(mockCalls);
    expect(await userBalance(f, user.id)).toEqual(before);
  });
});

import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startChannelMonitor } from '../../src/channels/channel-monitor.ts';
import { loadConfig } from '../../src/config/env.ts';
import { envelope } from '../helper.ts';
import {
  createCommonUser,
  eventually,
  type RelayFixture,
  settledLogs,
  startRelayFixture,
  updateChannel,
  userBalance,
} from '../relay/relay-support.ts';
import {
  mockChannel,
  otherInfoOf,
  readChannel,
  resetState,
  setOptions,
  settle,
  systemLogs,
  testChannel,
} from './channel-ops-support.ts';

describe('channel tests: GET /api/channel/test[/:id] (reference §8.1)', () => {
  let f: RelayFixture;

  beforeAll(async () => {
    f = await startRelayFixture();
  });
  afterEach(async () => resetState(f));
  afterAll(async () => f.close());

  it('tests one channel with a real call, records the time and logs 模型测试 without deducting quota', async () => {
    const id = await mockChannel(f, { models: 'gpt-4o-mini,gpt-4o' });
    const before = await userBalance(f, f.root.userId!);
    const start = f.mock.requests.length;
    const reply = await testChannel(f, id);
    expect(reply).toMatchObject({
      success: true,
      message: '',
      data: { model: 'gpt-4o-mini', status_change: null },
    });
    expect(typeof reply.time).toBe('number');
    expect(reply.time).toBeGreaterThanOrEqual(0);
    expect(reply.data.time).toBe(reply.time);
    const sent = f.mock.requests.slice(start);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.path).toBe('/v1/chat/completions');
    expect(sent[0]!.body).toMatchObject({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect((sent[0]!.body as { max_tokens: number }).max_tokens).toBeGreaterThan(0);

    const row = await readChannel(f, id);
    expect(Number(row.test_time)).toBeGreaterThan(0);
    expect(Number(row.response_time)).toBe(Math.round(reply.time * 1000));
    const log = (await settledLogs(f)).at(-1)!;
    expect(log).toMatchObject({
      user_id: f.root.userId,
      token_name: '模型测试',
      model_name: 'gpt-4o-mini',
      channel_id: id,
    });
    expect(Number(log.quota)).toBeGreaterThan(0);
    expect(Number(log.prompt_tokens)).toBeGreaterThan(0);
    expect(await userBalance(f, f.root.userId!)).toEqual(before);
  });

  it('uses ?model=, else the test model, and applies the channel model mapping', async () => {
    const id = await mockChannel(f, {
      models: 'gpt-4o,gpt-4o-mini',
      model_mapping: '{"gpt-4o":"gpt-4o-mini"}',
    });
    await updateChannel(f, id, { test_model: 'gpt-4o' });
    let start = f.mock.requests.length;
    expect((await testChannel(f, id)).data.model).toBe('gpt-4o');
    expect((f.mock.requests[start]!.body as { model: string }).model).toBe('gpt-4o-mini');
    start = f.mock.requests.length;
    expect((await testChannel(f, id, 'text-embedding-3-small')).success).toBe(true);
    expect(f.mock.requests[start]!.path).toBe('/v1/embeddings');
  });

  it('reports a failing channel with a clean message and leaves it alone while auto-disable is off', async () => {
    const id = await mockChannel(f, { scenario: 'error-401', key: 'sk-very-secret-key-123' });
    const reply = await testChannel(f, id);
    expect(reply.success).toBe(false);
    expect(reply.message).toBe('status code 401: Mock scenario: incorrect API key provided.');
    expect(reply.message).not.toContain('sk-very-secret');
    expect(reply.message).not.toContain('127.0.0.1');
    expect((await readChannel(f, id)).status).toBe(1);
  });

  it('disables a failing channel at once (status 3, reason, system log, out of routing) when the option is on', async () => {
    await setOptions(f, { AutomaticDisableChannelEnabled: 'true' });
    const id = await mockChannel(f, { name: 'bad key', scenario: 'error-401' });
    const reply = await testChannel(f, id);
    expect(reply.success).toBe(false);
    expect(reply.message).toContain('渠道已被自动禁用');
    expect(reply.data.status_change).toBe('disabled');
    expect((await readChannel(f, id)).status).toBe(3);
    const info = await otherInfoOf(f, id);
    expect(info.status_reason).toContain('status code 401');
    expect(info.status_time).toBeGreaterThan(0);
    expect(f.t.app.services.relay.channelIndex.get(id)).toBeUndefined();
    const abilities = await f.t.app.services.database.db
      .selectFrom('abilities')
      .select('enabled')
      .where('channel_id', '=', id)
      .execute();
    expect(abilities.every((row) => Number(row.enabled) === 0)).toBe(true);
    const logs = await systemLogs(f);
    expect(logs.at(-1)).toMatchObject({ channel_id: id });
    expect(logs.at(-1)!.content).toContain(`通道「bad key」（#${id}）已被自动禁用`);
  });

  it('keeps a channel with auto_ban 0 enabled even when its test fails', async () => {
    await setOptions(f, { AutomaticDisableChannelEnabled: 'true' });
    const id = await mockChannel(f, { scenario: 'error-401', auto_ban: 0 });
    expect((await testChannel(f, id)).success).toBe(false);
    expect((await readChannel(f, id)).status).toBe(1);
  });

  it('re-enables an automatically disabled channel after a passing test, only with the option on', async () => {
    await setOptions(f, { AutomaticDisableChannelEnabled: 'true' });
    const id = await mockChannel(f, { scenario: 'error-401' });
    await testChannel(f, id);
    expect((await readChannel(f, id)).status).toBe(3);
    await updateChannel(f, id, { base_url: f.mock.url });
    const stillOff = await testChannel(f, id);
    expect(stillOff).toMatchObject({ success: true, data: { status_change: null } });
    expect((await readChannel(f, id)).status).toBe(3);
    await setOptions(f, { AutomaticEnableChannelEnabled: 'true' });
    const reply = await testChannel(f, id);
    expect(reply).toMatchObject({ success: true, data: { status_change: 'enabled' } });
    expect((await readChannel(f, id)).status).toBe(1);
    expect((await otherInfoOf(f, id)).status_reason).toBe('');
    await eventually(
      async () => f.t.app.services.relay.channelIndex.get(id),
      (target) => target !== undefined,
    );
    const contents = (await systemLogs(f)).map((row) => row.content);
    expect(contents.at(-1)).toContain('已被自动启用');
  });

  it('never re-enables a manually disabled channel (status 2)', async () => {
    await setOptions(f, { AutomaticDisableChannelEnabled: 'true', AutomaticEnableChannelEnabled: 'true' });
    const id = await mockChannel(f, { status: 2 });
    expect((await testChannel(f, id)).success).toBe(true);
    expect((await readChannel(f, id)).status).toBe(2);
  });

  it('disables on a keyword line found in the upstream message (case-insensitive)', async () => {
    await setOptions(f, { AutomaticDisableChannelEnabled: 'true' });
    const plain = await mockChannel(f, { scenario: 'error-500' });
    await testChannel(f, plain);
    expect((await readChannel(f, plain)).status).toBe(1);
    await setOptions(f, { AutomaticDisableKeywords: 'nothing here\nTHE SERVER HAD AN ERROR' });
    await testChannel(f, plain);
    expect((await readChannel(f, plain)).status).toBe(3);
    expect((await otherInfoOf(f, plain)).status_reason).toContain('"the server had an error"');
  });

  it('disables an out-of-credit channel (error-quota: insufficient_quota, a default keyword)', async () => {
    await setOptions(f, { AutomaticDisableChannelEnabled: 'true' });
    const id = await mockChannel(f, { scenario: 'error-quota' });
    const reply = await testChannel(f, id);
    expect(reply.message).toContain('You exceeded your current quota');
    expect((await readChannel(f, id)).status).toBe(3);
  });

  it('disables a channel slower than ChannelDisableThreshold', async () => {
    await setOptions(f, { AutomaticDisableChannelEnabled: 'true', ChannelDisableThreshold: '0.2' });
    const id = await mockChannel(f, { scenario: 'slow-first-byte-400' });
    const reply = await testChannel(f, id);
    expect(reply.success).toBe(false);
    expect(reply.message).toMatch(/^响应时间 \d+\.\d\ds 超过阈值 0\.20s，渠道已被自动禁用$/);
    expect(reply.time).toBeGreaterThanOrEqual(0.4);
    expect((await readChannel(f, id)).status).toBe(3);
  });

  it('refuses a second test of a channel under test', async () => {
    const id = await mockChannel(f, { scenario: 'latency-800' });
    const start = f.mock.requests.length;
    const first = f.root.get(`/api/channel/test/${id}`);
    // The mock records a request before its latency: from then on the test is under way.
    await eventually(
      async () => f.mock.requests.length,
      (count) => count > start,
    );
    const second = envelope(await f.root.get(`/api/channel/test/${id}`));
    expect(second).toMatchObject({ success: false, message: '渠道测试正在进行中，请稍后再试' });
    expect((await first).json().success).toBe(true);
  });

  it('tests every enabled and auto-disabled channel in the background, one run at a time', async () => {
    await setOptions(f, { AutomaticDisableChannelEnabled: 'true', AutomaticEnableChannelEnabled: 'true' });
    const good = await mockChannel(f, { scenario: 'latency-300' });
    const bad = await mockChannel(f, { scenario: 'error-401' });
    const recovered = await mockChannel(f, { status: 3 });
    const manual = await mockChannel(f, { status: 2 });
    const started = envelope(await f.root.get('/api/channel/test'));
    expect(started).toMatchObject({ success: true });
    const again = envelope(await f.root.get('/api/channel/test'));
    expect(again).toMatchObject({ success: false, message: '测试已在运行中' });
    await settle(f);
    expect((await readChannel(f, good)).status).toBe(1);
    expect((await readChannel(f, bad)).status).toBe(3);
    expect((await readChannel(f, recovered)).status).toBe(1);
    expect((await readChannel(f, manual)).status).toBe(2);
    expect(Number((await readChannel(f, manual)).test_time)).toBe(0);
    for (const id of [good, bad, recovered])
      expect(Number((await readChannel(f, id)).test_time)).toBeGreaterThan(0);
    expect(envelope(await f.root.get('/api/channel/test')).success).toBe(true);
  });

  it('answers for a missing channel, an unsupported type and non-admins without a 500', async () => {
    expect(envelope(await f.root.get('/api/channel/test/999999'))).toMatchObject({
      success: false,
      message: '渠道不存在',
    });
    // Suno (36) is a task platform: the chat test does not apply to it.
    const unsupported = await mockChannel(f, { type: 36 });
    const reply = await testChannel(f, unsupported);
    expect(reply.success).toBe(false);
    expect(reply.message).toContain('暂不支持测试');
    const { client } = await createCommonUser(f, 'ops-tester', 0);
    for (const url of [`/api/channel/test/${unsupported}`, '/api/channel/test']) {
      const response = await client.get(url);
      expect(response.statusCode).toBeLessThan(500);
      expect(response.json().success).toBe(false);
      expect((await f.t.anonymous().get(url)).statusCode).toBe(401);
    }
    expect((await f.root.get('/api/channel/test/abc')).json().success).toBe(false);
  });
  it('runs tests and balance updates every CHANNEL_TEST_FREQUENCY / CHANNEL_UPDATE_FREQUENCY minutes', async () => {
    expect(loadConfig({}).channelTestFrequencyMinutes).toBeNull();
    expect(loadConfig({ CHANNEL_TEST_FREQUENCY: '0' }).channelTestFrequencyMinutes).toBeNull();
    expect(loadConfig({ CHANNEL_TEST_FREQUENCY: '10' }).channelTestFrequencyMinutes).toBe(10);
    expect(loadConfig({ CHANNEL_UPDATE_FREQUENCY: '30' }).channelUpdateFrequencyMinutes).toBe(30);
    expect(() => loadConfig({ CHANNEL_TEST_FREQUENCY: 'often' })).toThrow('CHANNEL_TEST_FREQUENCY');

    const id = await mockChannel(f, { scenario: 'balance-42' });
    const base = f.t.app.services;
    // A copy of the services gets its own runner, so the app's own monitor (timers off) is untouched.
    const services = {
      ...base,
      config: { ...base.config, channelTestFrequencyMinutes: 1, channelUpdateFrequencyMinutes: 2 },
    };
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    let stop: () => Promise<void>;
    try {
      stop = startChannelMonitor(services, f.t.app.log, { timers: true });
      vi.advanceTimersByTime(60_000);
    } finally {
      vi.useRealTimers();
    }
    const tested = await eventually(
      () => readChannel(f, id),
      (row) => Number(row.test_time) > 0,
    );
    expect(Number(tested.balance_updated_time)).toBe(0);
    await stop();
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      stop = startChannelMonitor(services, f.t.app.log, { timers: true });
      vi.advanceTimersByTime(120_000);
    } finally {
      vi.useRealTimers();
    }
    const updated = await eventually(
      () => readChannel(f, id),
      (row) => Number(row.balance_updated_time) > 0,
    );
    expect(Number(updated.balance)).toBe(42);
    await stop();
  });
});

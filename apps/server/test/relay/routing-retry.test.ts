import { createServer } from 'node:net';
import OpenAI from 'openai';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChannelInput,
  channelUsedQuota,
  chatBody,
  createChannel,
  createToken,
  deleteChannels,
  expectOpenAIError,
  type RawReply,
  type RelayFixture,
  relayPost,
  setOption,
  settledLogs,
  startRelayFixture,
  updateChannel,
} from './relay-support.ts';

const hello = chatBody('gpt-4o-mini', 'hello routing');

/** A port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === 'object' && address ? address.port : 9;
}

describe('channel routing and retries (reference §3.2–3.3)', () => {
  let f: RelayFixture;
  let key: string;
  const created: number[] = [];
  const errorReplies: RawReply[] = [];

  /** A channel whose key names it (`sk-route-<name>`), so mock requests tell which channel was called. */
  const channel = async (name: string, input: ChannelInput & { scenario?: string } = {}) => {
    const base_url = input.scenario ? `${f.mock.url}/__mock/${input.scenario}` : input.base_url;
    const id = await createChannel(f, { ...input, name, key: `sk-route-${name}`, base_url });
    created.push(id);
    return id;
  };
  /** Channel names (from the key) of the mock requests received since `start`. */
  const calledSince = (start: number) =>
    f.mock.requests
      .slice(start)
      .map((request) => String(request.headers.authorization).replace('Bearer sk-route-', ''));
  const failing = async (body: unknown, status: number, message?: string) => {
    const reply = await relayPost(f, key, body);
    errorReplies.push(reply);
    return expectOpenAIError(reply, status, message);
  };

  beforeAll(async () => {
    f = await startRelayFixture();
    key = (await createToken(f.root)).key;
  });
  afterEach(async () => {
    await deleteChannels(f, created.splice(0));
    await setOption(f, 'RetryTimes', '0');
  });
  afterAll(async () => f.close());

  it('retries a failing high-priority channel on a lower tier and bills only the good one', async () => {
    await setOption(f, 'RetryTimes', '1');
    const bad = await channel('bad', { priority: 10, scenario: 'error-500' });
    const good = await channel('good', { priority: 0 });
    const start = f.mock.requests.length;
    const client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
    const completion = await client.chat.completions.create(hello as never);
    expect(completion.choices[0]?.message.content).toContain('Hello from mock');
    expect(calledSince(start)).toEqual(['bad', 'good']);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log.channel_id).toBe(good);
    expect(JSON.parse(log.other ?? '{}').admin_info.use_channel).toEqual([String(bad), String(good)]);
    expect(await channelUsedQuota(f, bad)).toBe(0);
    expect(await channelUsedQuota(f, good)).toBe(log.quota);
  });

  it('never retries a failed channel in the same request, whatever the order', async () => {
    await setOption(f, 'RetryTimes', '2');
    await channel('bad-a', { scenario: 'error-500' });
    await channel('bad-b', { scenario: 'error-503' });
    await channel('good');
    for (let i = 0; i < 8; i++) {
      const start = f.mock.requests.length;
      const reply = await relayPost(f, key, hello);
      expect(reply.status, reply.text).toBe(200);
      const called = calledSince(start);
      expect(called.at(-1)).toBe('good');
      expect(new Set(called).size).toBe(called.length);
      expect(called.length).toBeLessThanOrEqual(3);
    }
  });

  it('does not retry an upstream 400', async () => {
    await setOption(f, 'RetryTimes', '2');
    await channel('bad-request', { priority: 10, scenario: 'error-400' });
    await channel('good', { priority: 0 });
    const start = f.mock.requests.length;
    await failing(hello, 400);
    expect(calledSince(start)).toEqual(['bad-request']);
  });

  it('answers 429 with the saturation message when every channel is rate limited', async () => {
    await setOption(f, 'RetryTimes', '2');
    await channel('limited-a', { scenario: 'error-429' });
    await channel('limited-b', { scenario: 'error-429' });
    const start = f.mock.requests.length;
    await failing(hello, 429, '当前分组上游负载已饱和，请稍后再试');
    expect(calledSince(start).sort()).toEqual(['limited-a', 'limited-b']);
  });

  it('makes one attempt only when RetryTimes is 0', async () => {
    await channel('bad', { priority: 10, scenario: 'error-500' });
    await channel('good', { priority: 0 });
    const start = f.mock.requests.length;
    await failing(hello, 500);
    expect(calledSince(start)).toEqual(['bad']);
  });

  it("applies the channel's status-code mapping", async () => {
    await channel('mapped-status', { scenario: 'error-500', status_code_mapping: '{"500":"503"}' });
    await failing(hello, 503);
  });

  it('maps the model upstream and logs the requested name', async () => {
    const mapped = await channel('mapped-model', { model_mapping: '{"gpt-4o-mini":"gpt-4o"}' });
    const reply = await relayPost(f, key, hello);
    expect(reply.status, reply.text).toBe(200);
    expect(f.mock.lastRequest()?.body).toMatchObject({ model: 'gpt-4o' });
    const log = (await settledLogs(f)).at(-1)!;
    expect(log).toMatchObject({ model_name: 'gpt-4o-mini', channel_id: mapped });
    expect(JSON.parse(log.other ?? '{}')).toMatchObject({
      is_model_mapped: true,
      upstream_model_name: 'gpt-4o',
      model_ratio: 0.075,
    });
  });

  it('skips a channel disabled through PUT /api/channel/ on the very next call', async () => {
    const first = await channel('first', { priority: 10 });
    await channel('second', { priority: 0 });
    // A slow index rebuild (a busy database) must not let the next call route by the old state.
    const index = f.t.app.services.relay.channelIndex;
    const rebuild = index.rebuild;
    index.rebuild = async () => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      return rebuild.call(index);
    };
    try {
      for (let round = 0; round < 2; round++) {
        let start = f.mock.requests.length;
        expect((await relayPost(f, key, hello)).status).toBe(200);
        expect(calledSince(start)).toEqual(['first']);
        await updateChannel(f, first, { status: 2 });
        start = f.mock.requests.length;
        expect((await relayPost(f, key, hello)).status).toBe(200);
        expect(calledSince(start)).toEqual(['second']);
        await updateChannel(f, first, { status: 1 });
      }
    } finally {
      index.rebuild = rebuild;
    }
  });

  it('keeps to the highest priority tier over many calls', async () => {
    await channel('top-a', { priority: 10 });
    await channel('top-b', { priority: 10 });
    await channel('low', { priority: 0 });
    const start = f.mock.requests.length;
    for (let i = 0; i < 30; i++) expect((await relayPost(f, key, hello)).status).toBe(200);
    const counts = new Map<string, number>();
    for (const name of calledSince(start)) counts.set(name, (counts.get(name) ?? 0) + 1);
    expect(counts.get('low')).toBeUndefined();
    expect(counts.get('top-a')).toBeGreaterThan(0);
    expect(counts.get('top-b')).toBeGreaterThan(0);
  });

  it('never shows a channel key or an upstream address to the client', async () => {
    await channel('unreachable', { base_url: `http://127.0.0.1:${await closedPort()}` });
    await failing(hello, 502, 'failed to reach the upstream');
    await channel('html', { priority: 10, scenario: 'html-error' });
    expect((await failing(hello, 502, 'bad response status code 502')).type).toBe('upstream_error');
    const secrets = ['sk-route-', `127.0.0.1:${f.mock.port}`, f.mock.url, '127.0.0.1', '<html'];
    expect(errorReplies.length).toBeGreaterThanOrEqual(6);
    for (const reply of errorReplies) {
      for (const secret of secrets) expect(reply.text).not.toContain(secret);
    }
  });
});

import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  type RelayFixture,
  settledLogs,
  startRelayFixture,
  userBalance,
} from './relay-support.ts';

describe('OpenAI chat completions through the official SDK', () => {
  let f: RelayFixture;
  let client: OpenAI;
  let channelId: number;

  beforeAll(async () => {
    f = await startRelayFixture();
    channelId = await createChannel(f);
    const { key } = await createToken(f.root);
    client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
  });
  afterAll(async () => f.close());

  it('answers a non-stream chat and bills the upstream usage exactly', async () => {
    const before = await userBalance(f, 1);
    const completion = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'hello there gateway' }],
    });
    expect(completion.choices[0]?.message.content).toContain('Hello from mock gpt-4o-mini');
    expect(completion.usage?.prompt_tokens).toBeGreaterThan(0);
    const logs = await settledLogs(f);
    const log = logs.at(-1)!;
    const usage = completion.usage!;
    // gpt-4o-mini: ratio 0.075, completion ratio 4, group 1.
    const expected = Math.max(1, Math.round((usage.prompt_tokens + usage.completion_tokens * 4) * 0.075));
    expect(log).toMatchObject({
      model_name: 'gpt-4o-mini',
      prompt_tokens: usage.prompt_tokens,
      completion_tokens: usage.completion_tokens,
      quota: expected,
      channel_id: channelId,
      is_stream: 0,
    });
    const other = JSON.parse(log.other ?? '{}');
    expect(other).toMatchObject({
      frt: -1000,
      model_ratio: 0.075,
      completion_ratio: 4,
      group_ratio: 1,
      usage_source: 'upstream',
    });
    expect(other.admin_info.use_channel).toEqual([String(channelId)]);
    const after = await userBalance(f, 1);
    expect(before.quota - after.quota).toBe(expected);
    expect(after.used_quota - before.used_quota).toBe(expected);
    expect(after.request_count - before.request_count).toBe(1);
  });

  it('streams without a usage chunk when the client did not ask, and still bills from upstream usage', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      messages: [{ role: 'user', content: 'stream please [[mock:chunks-5]]' }],
    });
    let text = '';
    let sawUsage = false;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta?.content ?? '';
      if (chunk.usage) sawUsage = true;
    }
    expect(text).toContain('Hello from mock gpt-4o-mini');
    expect(sawUsage).toBe(false);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log.is_stream).toBe(1);
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(JSON.parse(log.other ?? '{}').usage_source).toBe('upstream');
  });

  it('forwards the usage chunk when the client asks for it', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'usage please' }],
    });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage?.total_tokens).toBeGreaterThan(0);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log.prompt_tokens).toBe(usage?.prompt_tokens);
    expect(log.completion_tokens).toBe(usage?.completion_tokens);
  });

  it('counts locally and synthesizes the usage chunk when the upstream sends none', async () => {
    const stream = await client.chat.completions.create({
      model: 'gpt-4o-mini',
      stream: true,
      stream_options: { include_usage: true },
      messages: [{ role: 'user', content: 'no usage here [[mock:no-usage]]' }],
    });
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage?.completion_tokens).toBeGreaterThan(0);
    const log = (await settledLogs(f)).at(-1)!;
    expect(JSON.parse(log.other ?? '{}').usage_source).toBe('local');
    expect(log.completion_tokens).toBe(usage?.completion_tokens);
    expect(log.quota).toBeGreaterThan(0);
  });

  it('lists the models the token can use', async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model.id);
    expect(models.sort()).toEqual(['gpt-4o', 'gpt-4o-mini', 'text-embedding-3-small']);
  });

  it('refuses a wrong key in the OpenAI error shape', async () => {
    const bad = new OpenAI({ apiKey: 'sk-nope', baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
    const error = await bad.chat.completions
      .create({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.status).toBe(401);
    expect(error.error.message).toMatch(/无效的令牌 \(request id: \w+\)/);
  });

  it('answers 503 for a model no channel serves', async () => {
    const error = await client.chat.completions
      .create({ model: 'no-such-model', messages: [{ role: 'user', content: 'x' }] })
      .catch((e) => e);
    expect(error.status).toBe(503);
    expect(error.error.message).toContain('无可用渠道');
  });
});

describe('other OpenAI endpoints through the official SDK', () => {
  let f: RelayFixture;
  let client: OpenAI;

  beforeAll(async () => {
    f = await startRelayFixture();
    await createChannel(f, {
      models: 'text-embedding-3-small,gpt-3.5-turbo-instruct,omni-moderation-latest',
    });
    const { key } = await createToken(f.root);
    client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
  });
  afterAll(async () => f.close());

  it('relays embeddings and bills prompt tokens only', async () => {
    const result = await client.embeddings.create({
      model: 'text-embedding-3-small',
      input: ['one two three', 'four five'],
    });
    expect(result.data).toHaveLength(2);
    expect(result.data[0]?.embedding.length).toBeGreaterThan(0);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log).toMatchObject({
      model_name: 'text-embedding-3-small',
      prompt_tokens: result.usage.prompt_tokens,
      completion_tokens: 0,
    });
    // ratio 0.01: at least 1 quota
    expect(log.quota).toBe(Math.max(1, Math.round(result.usage.prompt_tokens * 0.01)));
  });

  it('relays legacy completions, streaming too', async () => {
    const completion = await client.completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'say something',
    });
    expect(completion.choices[0]?.text).toContain('Hello from mock');
    const stream = await client.completions.create({
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'stream it',
      stream: true,
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.text ?? '';
    expect(text).toContain('Hello from mock');
    const logs = await settledLogs(f);
    expect(logs.slice(-2).map((log) => log.is_stream)).toEqual([0, 1]);
  });

  it('relays moderations', async () => {
    const result = await client.moderations.create({
      model: 'omni-moderation-latest',
      input: 'is this fine',
    });
    expect(result.results).toHaveLength(1);
  });
});

import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createToken,
  deleteChannels,
  type RelayFixture,
  settledLogs,
  startRelayFixture,
  userBalance,
} from '../relay/relay-support.ts';
import {
  createAdapterChannel,
  expectCharged,
  mockCompletionTokens,
  mockPromptTokens,
  readChatStream,
} from './adapter-support.ts';

let f: RelayFixture;
let client: OpenAI;

beforeAll(async () => {
  f = await startRelayFixture();
  const { key } = await createToken(f.root);
  client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
});
afterAll(async () => f.close());

describe('Ollama channels (type 4, OpenAI-compatible API)', () => {
  const MODEL = 'gpt-4o-mini';
  let channelId: number;
  beforeAll(async () => {
    channelId = await createAdapterChannel(f, { type: 4, models: MODEL, key: 'ollama-proxy-key' });
  });
  afterAll(async () => deleteChannels(f, [channelId]));

  it('answers chat at /v1/chat/completions and bills the usage', async () => {
    await expectCharged(f, MODEL, channelId, async () => {
      const completion = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'hello ollama' }],
      });
      expect(completion.choices[0]?.message.content).toBe(`Hello from mock ${MODEL}: hello ollama`);
      const sent = f.mock.lastRequest()!;
      expect(sent.path).toBe('/v1/chat/completions');
      expect(sent.headers.authorization).toBe('Bearer ollama-proxy-key');
      return { prompt: completion.usage!.prompt_tokens, completion: completion.usage!.completion_tokens };
    });
  });

  it('streams with usage forced upstream', async () => {
    await expectCharged(f, MODEL, channelId, async () => {
      const stream = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'stream ollama' }],
        stream: true,
      });
      const { text, usage } = await readChatStream(stream);
      expect(text).toBe(`Hello from mock ${MODEL}: stream ollama`);
      expect(usage).toBeUndefined();
      expect(f.mock.lastRequest()!.body).toMatchObject({ stream_options: { include_usage: true } });
      return { prompt: mockPromptTokens('stream ollama'), completion: mockCompletionTokens(text) };
    });
  });
});

describe('DeepSeek channels (type 43): stream_options forced', () => {
  const MODEL = 'deepseek-chat';
  let channelId: number;
  beforeAll(async () => {
    channelId = await createAdapterChannel(f, { type: 43, models: MODEL });
  });
  afterAll(async () => deleteChannels(f, [channelId]));

  it('bills cache hits at the cache ratio', async () => {
    await expectCharged(f, MODEL, channelId, async () => {
      const completion = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'cached deepseek [[mock:cached-3]]' }],
      });
      expect(f.mock.lastRequest()!.path).toBe('/v1/chat/completions');
      expect(completion.usage?.prompt_tokens_details?.cached_tokens).toBe(3);
      return {
        prompt: completion.usage!.prompt_tokens,
        completion: completion.usage!.completion_tokens,
        cacheRead: 3,
      };
    });
  });

  it('asks the upstream for stream usage and drops the usage chunk the client did not ask for', async () => {
    await expectCharged(f, MODEL, channelId, async () => {
      const stream = await client.chat.completions.create({
        model: MODEL,
        messages: [{ role: 'user', content: 'stream deepseek' }],
        stream: true,
      });
      const { text, usage } = await readChatStream(stream);
      expect(text).toBe(`Hello from mock ${MODEL}: stream deepseek`);
      expect(usage).toBeUndefined();
      expect(f.mock.lastRequest()!.body).toMatchObject({ stream_options: { include_usage: true } });
      return { prompt: mockPromptTokens('stream deepseek'), completion: mockCompletionTokens(text) };
    });
  });

  it('passes the usage chunk on when the client asked for it', async () => {
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'usage please' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const { usage } = await readChatStream(stream);
    expect(usage).toMatchObject({ prompt_tokens: mockPromptTokens('usage please') });
  });
});

describe('Moonshot channels (type 25): stream_options stripped', () => {
  const MODEL = 'moonshot-v1-8k';
  let channelId: number;
  beforeAll(async () => {
    channelId = await createAdapterChannel(f, { type: 25, models: MODEL });
  });
  afterAll(async () => deleteChannels(f, [channelId]));

  it('answers JSON with the upstream usage', async () => {
    const completion = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'hello moonshot' }],
    });
    expect(completion.choices[0]?.message.content).toBe(`Hello from mock ${MODEL}: hello moonshot`);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log).toMatchObject({
      model_name: MODEL,
      channel_id: channelId,
      prompt_tokens: completion.usage!.prompt_tokens,
      completion_tokens: completion.usage!.completion_tokens,
    });
  });

  it('never sends stream_options and answers the usage it counted itself', async () => {
    await f.t.app.services.relay.drain();
    const before = await userBalance(f, 1);
    const stream = await client.chat.completions.create({
      model: MODEL,
      messages: [{ role: 'user', content: 'stream moonshot' }],
      stream: true,
      stream_options: { include_usage: true },
    });
    const { text, usage } = await readChatStream(stream);
    expect(text).toBe(`Hello from mock ${MODEL}: stream moonshot`);
    const sent = f.mock.lastRequest()!.body as Record<string, unknown>;
    expect(sent.stream).toBe(true);
    expect(sent).not.toHaveProperty('stream_options');
    const counted = usage as { prompt_tokens: number; completion_tokens: number };
    expect(counted.completion_tokens).toBeGreaterThan(0);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log).toMatchObject({
      model_name: MODEL,
      channel_id: channelId,
      prompt_tokens: counted.prompt_tokens,
      completion_tokens: counted.completion_tokens,
    });
    expect(log.quota).toBeGreaterThan(0);
    expect(before.quota - (await userBalance(f, 1)).quota).toBe(log.quota);
  });
});

import Anthropic from '@anthropic-ai/sdk';
import { parseServerSentEvents } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  type RelayFixture,
  relayPost,
  settledLogs,
  startRelayFixture,
  userBalance,
} from '../relay/relay-support.ts';
import { expectBilled } from './protocol-support.ts';

const MODEL = 'claude-3-5-sonnet-20241022';

describe('the official Anthropic SDK calling /v1/messages', () => {
  let f: RelayFixture;
  let key: string;
  let openAIChannel: number;
  let anthropicChannel: number;
  const client = () => new Anthropic({ apiKey: key, baseURL: f.baseUrl, maxRetries: 0 });
  // Each channel serves its own model name; the mapping sends the shared name upstream.
  const viaOpenAI = `${MODEL}-via-openai`;

  beforeAll(async () => {
    f = await startRelayFixture();
    openAIChannel = await createChannel(f, { name: 'openai', type: 1, models: viaOpenAI });
    anthropicChannel = await createChannel(f, { name: 'anthropic', type: 14, models: MODEL });
    await f.root.put('/api/option/', {
      key: 'ModelRatio',
      value: JSON.stringify({ [MODEL]: 1.5, [viaOpenAI]: 1.5 }),
    });
    ({ key } = await createToken(f.root));
  });
  afterAll(async () => f.close());

  describe('against an Anthropic-type channel (pass-through)', () => {
    it('answers a message and bills input, cache and output tokens', async () => {
      await expectBilled(
        f,
        MODEL,
        async () => {
          const message = await client().messages.create({
            model: MODEL,
            max_tokens: 200,
            messages: [{ role: 'user', content: 'hello claude [[mock:cached-10,cache-write-4]]' }],
          });
          expect(message.content[0]).toMatchObject({ type: 'text' });
          expect((message.content[0] as { text: string }).text).toContain(`Hello from mock ${MODEL}`);
          const usage = message.usage;
          expect(usage.cache_read_input_tokens).toBe(10);
          expect(usage.cache_creation_input_tokens).toBe(4);
          return {
            prompt: usage.input_tokens + 10 + 4,
            completion: usage.output_tokens,
            cacheRead: 10,
            cacheWrite: 4,
          };
        },
        anthropicChannel,
      );
    });

    it('streams the upstream events unchanged and bills from message_start/message_delta', async () => {
      await expectBilled(
        f,
        MODEL,
        async () => {
          const stream = client().messages.stream({
            model: MODEL,
            max_tokens: 200,
            messages: [{ role: 'user', content: 'stream it [[mock:chunks-4]]' }],
          });
          const message = await stream.finalMessage();
          expect((message.content[0] as { text: string }).text).toContain('Hello from mock');
          return { prompt: message.usage.input_tokens, completion: message.usage.output_tokens };
        },
        anthropicChannel,
      );
    });
  });

  describe('against an OpenAI-type channel (converted)', () => {
    it('answers a message converted from chat completions and bills the upstream usage', async () => {
      await expectBilled(
        f,
        viaOpenAI,
        async () => {
          const message = await client().messages.create({
            model: viaOpenAI,
            max_tokens: 200,
            system: 'be brief',
            messages: [{ role: 'user', content: 'hello converted' }],
          });
          expect(message.type).toBe('message');
          expect(message.role).toBe('assistant');
          expect(message.stop_reason).toBe('end_turn');
          expect((message.content[0] as { text: string }).text).toContain(`Hello from mock ${viaOpenAI}`);
          const sent = f.mock.lastRequest()!;
          expect(sent.path).toBe('/v1/chat/completions');
          expect((sent.body as { messages: unknown[] }).messages[0]).toMatchObject({ role: 'system' });
          return { prompt: message.usage.input_tokens, completion: message.usage.output_tokens };
        },
        openAIChannel,
      );
    });

    it('streams Anthropic events converted from an OpenAI stream, tool calls included', async () => {
      const stream = client().messages.stream({
        model: viaOpenAI,
        max_tokens: 200,
        tools: [
          {
            name: 'get_weather',
            description: 'weather',
            input_schema: { type: 'object', properties: { city: { type: 'string' } } },
          },
        ],
        messages: [{ role: 'user', content: 'weather in Paris?' }],
      });
      const message = await stream.finalMessage();
      const log = (await settledLogs(f)).at(-1)!;
      expect(log.channel_id).toBe(openAIChannel);
      expect(log.is_stream).toBe(1);
      expect(log.completion_tokens).toBe(message.usage.output_tokens);
      expect(message.stop_reason).toBe('tool_use');
      expect(message.content.find((block) => block.type === 'tool_use')).toMatchObject({
        type: 'tool_use',
        name: 'get_weather',
        input: { city: 'mock' },
      });
    });

    it('ends a stream cut by the upstream with an Anthropic error event and bills what was delivered', async () => {
      await f.t.app.services.relay.drain();
      const before = await userBalance(f, 1);
      const stream = client().messages.stream({
        model: viaOpenAI,
        max_tokens: 200,
        messages: [{ role: 'user', content: 'cut me [[mock:chunks-6,disconnect-after-2]]' }],
      });
      await expect(stream.finalMessage()).rejects.toThrow();
      const log = (await settledLogs(f)).at(-1)!;
      expect(log.content).toContain('上游流');
      const after = await userBalance(f, 1);
      expect(before.quota - after.quota).toBe(log.quota);
    });
  });

  it('ends a converted stream at a malformed upstream event with an Anthropic error event', async () => {
    await f.t.app.services.relay.drain();
    const before = await userBalance(f, 1);
    const reply = await relayPost(
      f,
      key,
      {
        model: viaOpenAI,
        max_tokens: 200,
        stream: true,
        messages: [{ role: 'user', content: 'broken [[mock:chunks-6,bad-json-event]]' }],
      },
      { path: '/v1/messages' },
    );
    expect(reply.status).toBe(200);
    const events = parseServerSentEvents(reply.text);
    expect(events.at(-1)?.event).toBe('error');
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ type: 'error', error: { type: 'api_error' } });
    expect(events.some((event) => event.event === 'content_block_delta')).toBe(true);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log.content).toContain('上游流错误');
    expect(before.quota - (await userBalance(f, 1)).quota).toBe(log.quota);
  });

  it('ends a pass-through stream at a malformed upstream event with an Anthropic error event', async () => {
    await f.t.app.services.relay.drain();
    const before = await userBalance(f, 1);
    const reply = await relayPost(
      f,
      key,
      {
        model: MODEL,
        max_tokens: 200,
        stream: true,
        messages: [{ role: 'user', content: 'broken native [[mock:chunks-6,bad-json-event]]' }],
      },
      { path: '/v1/messages' },
    );
    const events = parseServerSentEvents(reply.text);
    expect(events.at(-1)?.event).toBe('error');
    expect(events.some((event) => event.event === 'message_stop')).toBe(false);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log.channel_id).toBe(anthropicChannel);
    expect(before.quota - (await userBalance(f, 1)).quota).toBe(log.quota);
  });

  it('refuses a bad key in the Anthropic error shape', async () => {
    const reply = await relayPost(
      f,
      null,
      { model: MODEL, max_tokens: 10, messages: [{ role: 'user', content: 'x' }] },
      { path: '/v1/messages', headers: { 'x-api-key': 'sk-wrong', 'anthropic-version': '2023-06-01' } },
    );
    expect(reply.status).toBe(401);
    expect(reply.json).toMatchObject({ type: 'error', error: { type: 'authentication_error' } });
    expect(reply.json.error.message).toMatch(/无效的令牌/);
  });

  it('refuses a malformed body in the Anthropic error shape without reserving quota', async () => {
    const before = await userBalance(f, 1);
    const reply = await relayPost(f, key, { model: MODEL, messages: 'nope' }, { path: '/v1/messages' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    expect((await userBalance(f, 1)).quota).toBe(before.quota);
  });
});

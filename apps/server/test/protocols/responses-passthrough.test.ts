import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  type RelayFixture,
  settledLogs,
  startRelayFixture,
  userBalance,
} from '../relay/relay-support.ts';
import { expectBilled } from './protocol-support.ts';

const MODEL = 'gpt-4o-mini';

describe('the OpenAI SDK calling /v1/responses on an OpenAI-type channel (pass-through)', () => {
  let f: RelayFixture;
  let client: OpenAI;
  let channelId: number;

  beforeAll(async () => {
    f = await startRelayFixture();
    channelId = await createChannel(f, { type: 1, models: MODEL });
    const { key } = await createToken(f.root);
    client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
  });
  afterAll(async () => f.close());

  it('forwards the request to /v1/responses and bills the usage with cached tokens priced', async () => {
    const log = await expectBilled(
      f,
      MODEL,
      async () => {
        const response = await client.responses.create({
          model: MODEL,
          instructions: 'be brief',
          input: 'hello pass-through [[mock:cached-4]]',
        });
        expect(response.object).toBe('response');
        expect(response.output_text).toBe(`Hello from mock ${MODEL}: hello pass-through`);
        const sent = f.mock.lastRequest()!;
        expect(sent.path).toBe('/v1/responses');
        expect(sent.body).toMatchObject({ model: MODEL, instructions: 'be brief' });
        // instructions 2 + 3, input 3 + 3 words; 4 of them cached.
        expect(response.usage).toMatchObject({
          input_tokens: 11,
          input_tokens_details: { cached_tokens: 4 },
        });
        return {
          prompt: response.usage!.input_tokens,
          completion: response.usage!.output_tokens,
          cacheRead: 4,
        };
      },
      channelId,
    );
    expect(log.prompt_tokens).toBe(11);
  });

  it('streams the upstream events unchanged and bills from response.completed', async () => {
    await expectBilled(
      f,
      MODEL,
      async () => {
        const stream = await client.responses.create({
          model: MODEL,
          input: 'stream pass-through [[mock:cached-2]]',
          stream: true,
        });
        const types: string[] = [];
        let text = '';
        let completed: OpenAI.Responses.Response | undefined;
        for await (const event of stream) {
          types.push(event.type);
          if (event.type === 'response.output_text.delta') text += event.delta;
          if (event.type === 'response.completed') completed = event.response;
        }
        expect(types[0]).toBe('response.created');
        expect(types).toContain('response.output_item.done');
        expect(text).toBe(`Hello from mock ${MODEL}: stream pass-through`);
        expect(completed?.usage?.input_tokens_details.cached_tokens).toBe(2);
        expect((f.mock.lastRequest()!.body as { stream?: boolean }).stream).toBe(true);
        return {
          prompt: completed!.usage!.input_tokens,
          completion: completed!.usage!.output_tokens,
          cacheRead: 2,
        };
      },
      channelId,
    );
  });

  it('passes function calls through as function_call items', async () => {
    const response = await client.responses.create({
      model: MODEL,
      input: 'weather?',
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          strict: false,
          parameters: { type: 'object', properties: { city: { type: 'string' } } },
        },
      ],
    });
    expect(response.output[0]).toMatchObject({
      type: 'function_call',
      name: 'get_weather',
      arguments: '{"city":"mock"}',
    });
  });

  it('bills a stream without upstream usage from the local count', async () => {
    const stream = await client.responses.create({
      model: MODEL,
      input: 'no usage here [[mock:no-usage]]',
      stream: true,
    });
    let text = '';
    for await (const event of stream) {
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    expect(text).toBe(`Hello from mock ${MODEL}: no usage here`);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log).toMatchObject({ model_name: MODEL, channel_id: channelId });
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(log.quota).toBeGreaterThan(0);
  });

  it('bills what was delivered when the upstream stream is cut', async () => {
    await f.t.app.services.relay.drain();
    const before = await userBalance(f, 1);
    const stream = await client.responses.create({
      model: MODEL,
      input: 'cut me short [[mock:disconnect-after-2]]',
      stream: true,
    });
    let text = '';
    const types: string[] = [];
    await (async () => {
      for await (const event of stream) {
        types.push(event.type);
        if (event.type === 'response.output_text.delta') text += event.delta;
      }
    })().catch(() => undefined);
    expect(text).toBe('Hello from');
    expect(types).not.toContain('response.completed');
    const log = (await settledLogs(f)).at(-1)!;
    expect(log).toMatchObject({ model_name: MODEL, channel_id: channelId });
    expect(log.completion_tokens).toBeGreaterThan(0);
    expect(before.quota - (await userBalance(f, 1)).quota).toBe(log.quota);
  });

  it('relays an upstream error with its status', async () => {
    await expect(
      client.responses.create({ model: MODEL, input: 'fail [[mock:error-400]]' }),
    ).rejects.toMatchObject({ status: 400 });
  });
});

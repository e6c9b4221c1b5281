import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChannel, createToken, type RelayFixture, startRelayFixture } from '../relay/relay-support.ts';
import { expectBilled } from './protocol-support.ts';

const CLAUDE = 'claude-3-5-sonnet-20241022';

describe('the OpenAI SDK calling /v1/responses on an Anthropic-type channel (converted)', () => {
  let f: RelayFixture;
  let client: OpenAI;
  let channelId: number;

  beforeAll(async () => {
    f = await startRelayFixture();
    channelId = await createChannel(f, { type: 14, models: CLAUDE });
    const { key } = await createToken(f.root);
    client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
  });
  afterAll(async () => f.close());

  it('answers a response object and bills the upstream usage', async () => {
    await expectBilled(
      f,
      CLAUDE,
      async () => {
        const response = await client.responses.create({
          model: CLAUDE,
          instructions: 'be brief',
          input: 'hello responses',
          max_output_tokens: 300,
        });
        expect(response.object).toBe('response');
        expect(response.status).toBe('completed');
        expect(response.output_text).toContain(`Hello from mock ${CLAUDE}`);
        const sent = f.mock.lastRequest()!;
        expect(sent.path).toBe('/v1/messages');
        expect((sent.body as { system?: unknown }).system).toBeTruthy();
        return { prompt: response.usage!.input_tokens, completion: response.usage!.output_tokens };
      },
      channelId,
    );
  });

  it('streams response events ending with response.completed and its usage', async () => {
    await expectBilled(
      f,
      CLAUDE,
      async () => {
        const stream = await client.responses.create({
          model: CLAUDE,
          input: 'stream responses [[mock:chunks-4]]',
          stream: true,
        });
        let text = '';
        let completed: OpenAI.Responses.Response | undefined;
        for await (const event of stream) {
          if (event.type === 'response.output_text.delta') text += event.delta;
          if (event.type === 'response.completed') completed = event.response;
        }
        expect(text).toContain(`Hello from mock ${CLAUDE}`);
        expect(completed?.usage?.output_tokens).toBeGreaterThan(0);
        return { prompt: completed!.usage!.input_tokens, completion: completed!.usage!.output_tokens };
      },
      channelId,
    );
  });

  it('returns function calls as function_call output items', async () => {
    const response = await client.responses.create({
      model: CLAUDE,
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
    const call = response.output.find((item) => item.type === 'function_call');
    expect(call).toMatchObject({ type: 'function_call', name: 'get_weather' });
    expect(JSON.parse((call as { arguments: string }).arguments)).toEqual({ city: 'mock' });
  });
});

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

const CLAUDE = 'claude-3-5-sonnet-20241022';
const GEMINI = 'gemini-2.0-flash';

describe('the official OpenAI SDK calling Anthropic-type and Gemini-type channels', () => {
  let f: RelayFixture;
  let client: OpenAI;
  let anthropicChannel: number;
  let geminiChannel: number;

  beforeAll(async () => {
    f = await startRelayFixture();
    anthropicChannel = await createChannel(f, { name: 'anthropic', type: 14, models: CLAUDE });
    geminiChannel = await createChannel(f, { name: 'gemini', type: 24, models: GEMINI });
    const { key } = await createToken(f.root);
    client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
  });
  afterAll(async () => f.close());

  for (const [label, model, channel] of [
    ['Anthropic', CLAUDE, () => anthropicChannel],
    ['Gemini', GEMINI, () => geminiChannel],
  ] as const) {
    describe(`${label}-type channel`, () => {
      it('answers a non-stream chat converted from the native format and bills it', async () => {
        await expectBilled(
          f,
          model,
          async () => {
            const completion = await client.chat.completions.create({
              model,
              max_tokens: 300,
              messages: [
                { role: 'system', content: 'be brief' },
                { role: 'user', content: 'hello from openai' },
              ],
            });
            expect(completion.object).toBe('chat.completion');
            expect(completion.choices[0]?.message.content).toContain(`Hello from mock ${model}`);
            expect(completion.choices[0]?.finish_reason).toBe('stop');
            const usage = completion.usage!;
            expect(usage.prompt_tokens).toBeGreaterThan(0);
            return { prompt: usage.prompt_tokens, completion: usage.completion_tokens };
          },
          channel(),
        );
      });

      it('streams chunks converted from the native stream, with the usage chunk when asked', async () => {
        await expectBilled(
          f,
          model,
          async () => {
            const stream = await client.chat.completions.create({
              model,
              stream: true,
              stream_options: { include_usage: true },
              messages: [{ role: 'user', content: 'stream from openai [[mock:chunks-5]]' }],
            });
            let text = '';
            let usage: OpenAI.CompletionUsage | undefined;
            let finish: string | null | undefined;
            for await (const chunk of stream) {
              text += chunk.choices[0]?.delta?.content ?? '';
              finish = chunk.choices[0]?.finish_reason ?? finish;
              if (chunk.usage) usage = chunk.usage;
            }
            expect(text).toContain(`Hello from mock ${model}`);
            expect(finish).toBe('stop');
            expect(usage).toBeDefined();
            return { prompt: usage!.prompt_tokens, completion: usage!.completion_tokens };
          },
          channel(),
        );
      });

      it('streams a tool call as OpenAI tool_calls deltas', async () => {
        const stream = await client.chat.completions.create({
          model,
          stream: true,
          tools: [
            {
              type: 'function',
              function: {
                name: 'get_weather',
                parameters: { type: 'object', properties: { city: { type: 'string' } } },
              },
            },
          ],
          messages: [{ role: 'user', content: 'weather?' }],
        });
        let name = '';
        let args = '';
        let finish: string | null | undefined;
        for await (const chunk of stream) {
          const call = chunk.choices[0]?.delta?.tool_calls?.[0];
          name += call?.function?.name ?? '';
          args += call?.function?.arguments ?? '';
          finish = chunk.choices[0]?.finish_reason ?? finish;
        }
        expect(name).toBe('get_weather');
        expect(JSON.parse(args)).toEqual({ city: 'mock' });
        expect(finish).toBe('tool_calls');
      });

      it('ends a stream cut by the upstream with an error and settles exactly what was billed', async () => {
        await f.t.app.services.relay.drain();
        const before = await userBalance(f, 1);
        const stream = await client.chat.completions.create({
          model,
          stream: true,
          messages: [{ role: 'user', content: 'cut [[mock:chunks-6,disconnect-after-2]]' }],
        });
        let text = '';
        await expect(
          (async () => {
            for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
          })(),
        ).rejects.toThrow();
        expect(text.length).toBeGreaterThan(0);
        const log = (await settledLogs(f)).at(-1)!;
        expect(log.channel_id).toBe(channel());
        const after = await userBalance(f, 1);
        expect(before.quota - after.quota).toBe(log.quota);
      });
    });
  }
});

import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createToken,
  type RelayFixture,
  relayPost,
  settledLogs,
  startRelayFixture,
  userBalance,
} from '../relay/relay-support.ts';
import { createAdapterChannel } from './adapter-support.ts';

const GPT = 'gpt-4o-mini';
const CLAUDE = 'claude-3-5-sonnet-20241022';
const GEMINI = 'gemini-2.0-flash';

describe('upstream connections closed before the answer is complete', () => {
  let f: RelayFixture;
  let key: string;
  let client: OpenAI;

  beforeAll(async () => {
    f = await startRelayFixture();
    await createAdapterChannel(f, { type: 1, models: GPT });
    await createAdapterChannel(f, { type: 14, models: CLAUDE });
    await createAdapterChannel(f, { type: 24, models: GEMINI });
    ({ key } = await createToken(f.root));
    client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
  });
  afterAll(async () => f.close());

  /** The consume log rows and the root balance, after every earlier settlement finished. */
  async function snapshot() {
    const logs = await settledLogs(f);
    return { count: logs.length, quota: (await userBalance(f, 1)).quota };
  }

  for (const model of [GPT, CLAUDE]) {
    it(`answers 502 and charges nothing when a JSON body is cut (${model})`, async () => {
      const before = await snapshot();
      const reply = await relayPost(f, key, {
        model,
        messages: [{ role: 'user', content: 'cut json [[mock:disconnect-after-1]]' }],
      });
      expect(reply.status, reply.text).toBe(502);
      expect(reply.json.error.message).toContain(
        'upstream closed the connection before the response was complete',
      );
      const after = await snapshot();
      expect(after).toEqual(before);
    });
  }

  it('answers a cut Anthropic-native JSON body in the Anthropic error shape', async () => {
    const reply = await relayPost(
      f,
      null,
      {
        model: CLAUDE,
        max_tokens: 50,
        messages: [{ role: 'user', content: 'cut [[mock:disconnect-after-1]]' }],
      },
      { path: '/v1/messages', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' } },
    );
    expect(reply.status).toBe(502);
    expect(reply.json).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('upstream') },
    });
  });

  for (const model of [CLAUDE, GEMINI]) {
    it(`bills at least the output delivered before a stream was cut (${model})`, async () => {
      const before = await snapshot();
      const stream = await client.chat.completions.create({
        model,
        messages: [{ role: 'user', content: 'cut stream [[mock:disconnect-after-3]]' }],
        stream: true,
      });
      let text = '';
      await (async () => {
        for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? '';
      })().catch(() => undefined);
      expect(text).toBe('Hello from mock');
      const logs = await settledLogs(f);
      expect(logs).toHaveLength(before.count + 1);
      const log = logs.at(-1)!;
      // "Hello from mock" is 3 tokens; the upstream's running usage said 1 (Claude) or 0 (Gemini).
      expect(log).toMatchObject({ model_name: model, completion_tokens: 3 });
      expect(log.content).toContain('上游流中断');
      expect(before.quota - (await userBalance(f, 1)).quota).toBe(log.quota);
    });
  }
});

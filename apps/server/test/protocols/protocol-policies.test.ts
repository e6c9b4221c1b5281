import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { envelope } from '../helper.ts';
import {
  createChannel,
  createToken,
  type RelayFixture,
  relayPost,
  setOption,
  startRelayFixture,
  userBalance,
} from '../relay/relay-support.ts';

const CLAUDE = 'claude-3-5-sonnet-20241022';
const GEMINI = 'gemini-2.0-flash';

describe('site policies in every client protocol, model lists and Gemini array streams', () => {
  let f: RelayFixture;
  let key: string;
  let openAIChannel: number;

  beforeAll(async () => {
    f = await startRelayFixture();
    openAIChannel = await createChannel(f, { name: 'openai', models: 'gpt-4o-mini,gpt-4o' });
    await createChannel(f, { name: 'anthropic', type: 14, models: CLAUDE });
    await createChannel(f, { name: 'gemini', type: 24, models: GEMINI });
    ({ key } = await createToken(f.root));
    await setOption(f, 'SensitiveWords', 'forbidden thing');
  });
  afterAll(async () => f.close());

  it('refuses sensitive words in Anthropic Messages with an Anthropic error, before any reservation', async () => {
    const before = await userBalance(f, 1);
    const requests = f.mock.requests.length;
    const client = new Anthropic({ apiKey: key, baseURL: f.baseUrl, maxRetries: 0 });
    const error = await client.messages
      .create({
        model: CLAUDE,
        max_tokens: 50,
        system: 'the forbidden thing is here',
        messages: [{ role: 'user', content: 'hi' }],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect((error as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('forbidden thing') },
    });
    expect(f.mock.requests.length).toBe(requests);
    expect((await userBalance(f, 1)).quota).toBe(before.quota);
  });

  it('refuses sensitive words in a Gemini request with a Google error', async () => {
    const reply = await relayPost(
      f,
      null,
      { contents: [{ role: 'user', parts: [{ text: 'say the FORBIDDEN thing' }] }] },
      { path: `/v1beta/models/${GEMINI}:generateContent`, headers: { 'x-goog-api-key': key } },
    );
    expect(reply.status).toBe(400);
    expect(reply.json.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(reply.json.error.message).toContain('forbidden thing');
  });

  it('refuses sensitive words in a Responses request', async () => {
    const reply = await relayPost(
      f,
      key,
      { model: 'gpt-4o-mini', input: 'a forbidden thing' },
      { path: '/v1/responses' },
    );
    expect(reply.status).toBe(400);
    expect(reply.json.error.code).toBe('sensitive_words_detected');
  });

  it('refuses an unpriced model in each protocol, and serves it in self-use mode at ratio 37.5', async () => {
    await createChannel(f, { name: 'unpriced', type: 14, models: 'claude-unpriced-model' });
    const anthropicBody = {
      model: 'claude-unpriced-model',
      max_tokens: 20,
      messages: [{ role: 'user', content: 'hi' }],
    };
    const refused = await relayPost(f, key, anthropicBody, { path: '/v1/messages' });
    expect(refused.status).toBe(400);
    expect(refused.json).toMatchObject({
      type: 'error',
      error: { message: expect.stringContaining('倍率或价格未配置') },
    });
    const gemini = await relayPost(
      f,
      null,
      { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      { path: '/v1beta/models/claude-unpriced-model:generateContent', headers: { 'x-goog-api-key': key } },
    );
    expect(gemini.status).toBe(400);
    expect(gemini.json.error.status).toBe('INVALID_ARGUMENT');
    await setOption(f, 'SelfUseModeEnabled', 'true');
    try {
      const served = await relayPost(f, key, anthropicBody, { path: '/v1/messages' });
      expect(served.status, served.text).toBe(200);
      await f.t.app.services.relay.drain();
      const log = await f.t.app.services.logDatabase.db
        .selectFrom('logs')
        .selectAll()
        .where('model_name', '=', 'claude-unpriced-model')
        .executeTakeFirstOrThrow();
      expect(JSON.parse(log.other ?? '{}').model_ratio).toBe(37.5);
    } finally {
      await setOption(f, 'SelfUseModeEnabled', 'false');
    }
  });

  it('streams a Gemini JSON array when the client did not ask for alt=sse', async () => {
    const reply = await relayPost(
      f,
      null,
      { contents: [{ role: 'user', parts: [{ text: 'array please' }] }] },
      { path: `/v1beta/models/${GEMINI}:streamGenerateContent`, headers: { 'x-goog-api-key': key } },
    );
    expect(reply.status).toBe(200);
    const chunks = JSON.parse(reply.text) as Array<{
      candidates?: Array<{ content: { parts: Array<{ text?: string }> } }>;
    }>;
    expect(Array.isArray(chunks)).toBe(true);
    const text = chunks.map((chunk) => chunk.candidates?.[0]?.content.parts[0]?.text ?? '').join('');
    expect(text).toContain(`Hello from mock ${GEMINI}`);
  });

  it('lists models in the Anthropic shape for Anthropic clients', async () => {
    const response = await fetch(`${f.baseUrl}/v1/models`, {
      headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' },
    });
    const body = (await response.json()) as { data: Array<{ type: string; id: string }>; has_more: boolean };
    expect(body.has_more).toBe(false);
    expect(body.data).toContainEqual(expect.objectContaining({ type: 'model', id: CLAUDE }));
  });

  it('fetches a saved channel’s upstream model list (admin) and an edited one’s (root only)', async () => {
    const saved = envelope(await f.root.get(`/api/channel/fetch_models/${openAIChannel}`));
    expect(saved.success, saved.message).toBe(true);
    expect(saved.data).toEqual(expect.arrayContaining(['gpt-4o-mini']));
    const anthropic = envelope(
      await f.root.post('/api/channel/fetch_models', { type: 14, key: 'sk-ant', base_url: f.mock.url }),
    );
    expect(anthropic.success, anthropic.message).toBe(true);
    expect(anthropic.data.length).toBeGreaterThan(0);
    const refused = envelope(
      await f.root.post('/api/channel/fetch_models', { type: 1, key: 'sk-invalid', base_url: f.mock.url }),
    );
    expect(refused.success).toBe(false);
    expect(refused.message).toMatch(/获取模型列表失败/);
    expect(refused.message).not.toContain('sk-invalid');
  });
});

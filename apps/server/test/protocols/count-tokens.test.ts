import Anthropic from '@anthropic-ai/sdk';
import { summarizeAnthropicMessages, summarizeGeminiContents } from '@switchyard/mock-upstream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  type RelayFixture,
  relayPost,
  setOption,
  settledLogs,
  startRelayFixture,
  userBalance,
} from '../relay/relay-support.ts';

const CLAUDE = 'claude-3-5-sonnet-20241022';
const GEMINI = 'gemini-2.0-flash';
const GPT = 'gpt-4o-mini';

describe('token counts: /v1/messages/count_tokens and Gemini :countTokens', () => {
  let f: RelayFixture;
  let key: string;
  const client = () => new Anthropic({ apiKey: key, baseURL: f.baseUrl, maxRetries: 0 });
  const messages = [{ role: 'user' as const, content: 'count these five words please' }];

  beforeAll(async () => {
    f = await startRelayFixture();
    await createChannel(f, { name: 'anthropic', type: 14, models: CLAUDE });
    await createChannel(f, { name: 'gemini', type: 24, models: GEMINI });
    await createChannel(f, { name: 'openai', type: 1, models: GPT });
    ({ key } = await createToken(f.root));
  });
  afterAll(async () => f.close());

  it("relays the SDK's messages.countTokens to an Anthropic channel, unbilled and unlogged", async () => {
    const before = await userBalance(f, 1);
    const logsBefore = (await settledLogs(f)).length;
    f.mock.clearRequests();
    const count = await client().messages.countTokens({ model: CLAUDE, system: 'be brief', messages });
    expect(count.input_tokens).toBe(summarizeAnthropicMessages('be brief', messages).countedPromptTokens);
    const sent = f.mock.lastRequest()!;
    expect(sent.path).toBe('/v1/messages/count_tokens');
    expect(sent.body).toEqual({ model: CLAUDE, system: 'be brief', messages });
    expect(sent.headers['x-api-key']).toBe('sk-mock-upstream');
    const after = await userBalance(f, 1);
    expect(after).toEqual(before);
    expect((await settledLogs(f)).length).toBe(logsBefore);
  });

  it('answers with the gateway estimate when no channel of the model counts natively', async () => {
    f.mock.clearRequests();
    const count = await client().messages.countTokens({ model: GPT, messages });
    expect(count.input_tokens).toBeGreaterThan(5);
    expect(f.mock.requests).toHaveLength(0);
  });

  it('falls back to the estimate when the upstream count fails', async () => {
    const count = await client().messages.countTokens({
      model: CLAUDE,
      messages: [{ role: 'user', content: 'broken [[mock:error-500]]' }],
    });
    expect(count.input_tokens).toBeGreaterThan(0);
  });

  it("counts Gemini's :countTokens on a Gemini channel, and by estimate elsewhere", async () => {
    const contents = [{ role: 'user', parts: [{ text: 'how many tokens is this' }] }];
    const relayed = await relayPost(
      f,
      null,
      { contents },
      { path: `/v1beta/models/${GEMINI}:countTokens`, headers: { 'x-goog-api-key': key } },
    );
    expect(relayed.status).toBe(200);
    expect(relayed.json.totalTokens).toBe(summarizeGeminiContents({ contents }).countedPromptTokens);
    expect(f.mock.lastRequest()!.path).toBe(`/v1beta/models/${GEMINI}:countTokens`);
    const estimated = await relayPost(
      f,
      null,
      { generateContentRequest: { model: `models/${GPT}`, contents } },
      { path: `/v1beta/models/${GPT}:countTokens?key=${key}` },
    );
    expect(estimated.status).toBe(200);
    expect(estimated.json.totalTokens).toBeGreaterThan(5);
  });

  it('refuses in each protocol’s own error shape (auth, body, token model limits)', async () => {
    const noKey = await relayPost(
      f,
      null,
      { model: CLAUDE, messages },
      { path: '/v1/messages/count_tokens' },
    );
    expect(noKey.status).toBe(401);
    expect(noKey.json).toMatchObject({ type: 'error', error: { type: expect.any(String) } });
    await expect(client().messages.countTokens({ model: CLAUDE, messages: [] })).rejects.toMatchObject({
      status: 400,
      error: { type: 'error', error: { type: 'invalid_request_error' } },
    });
    const badGemini = await relayPost(
      f,
      null,
      { contents: 'nope' },
      { path: `/v1beta/models/${GEMINI}:countTokens`, headers: { 'x-goog-api-key': key } },
    );
    expect(badGemini.status).toBe(400);
    expect(badGemini.json.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    const limited = await createToken(f.root, { model_limits_enabled: true, model_limits: GPT });
    const refused = await relayPost(
      f,
      limited.key,
      { model: CLAUDE, messages },
      { path: '/v1/messages/count_tokens' },
    );
    expect(refused.status).toBe(403);
    expect(refused.json.type).toBe('error');
  });

  it('is rate-limited like any relay call', async () => {
    await setOption(f, 'ModelRequestRateLimitEnabled', 'true');
    await setOption(f, 'ModelRequestRateLimitDurationMinutes', '1');
    await setOption(f, 'ModelRequestRateLimitCount', '1');
    try {
      const { key: fresh } = await createToken(f.root);
      const body = { model: GPT, messages };
      const first = await relayPost(f, fresh, body, { path: '/v1/messages/count_tokens' });
      expect(first.status).toBe(200);
      const second = await relayPost(f, fresh, body, { path: '/v1/messages/count_tokens' });
      expect(second.status).toBe(429);
      expect(second.json.type).toBe('error');
    } finally {
      await setOption(f, 'ModelRequestRateLimitEnabled', 'false');
    }
  });
});

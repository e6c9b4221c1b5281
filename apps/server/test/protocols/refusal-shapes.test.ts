import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createChannel,
  createToken,
  expectOpenAIError,
  type RelayFixture,
  relayPost,
  startRelayFixture,
  userBalance,
} from '../relay/relay-support.ts';

const CLAUDE = 'claude-3-5-sonnet-20241022';
const GEMINI = 'gemini-2.0-flash';
const GPT = 'gpt-4o-mini';

/**
 * A request the gateway refuses is a 4xx in the caller's protocol — never a 5xx, which SDKs and
 * agents retry — with nothing sent upstream and nothing charged.
 */
describe('refused requests answer 4xx in each protocol’s shape', () => {
  let f: RelayFixture;
  let key: string;

  beforeAll(async () => {
    f = await startRelayFixture();
    await createChannel(f, { name: 'anthropic', type: 14, models: CLAUDE });
    await createChannel(f, { name: 'gemini', type: 24, models: GEMINI });
    await createChannel(f, { name: 'openai', type: 1, models: GPT });
    ({ key } = await createToken(f.root));
  });
  afterAll(async () => f.close());

  /** Runs a refused call and checks that nothing reached the upstream and the balance is whole. */
  async function refusedUpstreamFree(call: () => Promise<void>) {
    const before = await userBalance(f, 1);
    f.mock.clearRequests();
    await call();
    expect(f.mock.requests).toHaveLength(0);
    expect(await userBalance(f, 1)).toEqual(before);
  }

  it('OpenAI chat: a malformed body', async () => {
    await refusedUpstreamFree(async () => {
      const reply = await relayPost(f, key, { model: GPT, messages: 'hi' });
      expectOpenAIError(reply, 400, '"messages" must be an array');
    });
  });

  it('Responses: a built-in tool the converted channel cannot run names tools[i] and its type', async () => {
    const client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
    await refusedUpstreamFree(async () => {
      const error = await client.responses
        .create({
          model: CLAUDE,
          input: 'search my files',
          tools: [
            { type: 'function', name: 'f', strict: false, parameters: {} },
            { type: 'file_search', vector_store_ids: ['vs_1'] },
          ],
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(OpenAI.BadRequestError);
      const body = (error as InstanceType<typeof OpenAI.BadRequestError>).error as {
        message: string;
        type: string;
      };
      expect(body.type).toBe('invalid_request_error');
      expect(body.message).toContain('tools[1] of type "file_search"');
    });
  });

  it('Responses: server-side state on a converted channel', async () => {
    await refusedUpstreamFree(async () => {
      const reply = await relayPost(
        f,
        key,
        { model: GEMINI, input: 'continue', previous_response_id: 'resp_1' },
        { path: '/v1/responses' },
      );
      expectOpenAIError(reply, 400, 'previous_response_id');
    });
  });

  it('Anthropic Messages: a server tool the converted channel cannot run', async () => {
    const client = new Anthropic({ apiKey: key, baseURL: f.baseUrl, maxRetries: 0 });
    await refusedUpstreamFree(async () => {
      const error = await client.messages
        .create({
          model: GPT,
          max_tokens: 100,
          messages: [{ role: 'user', content: 'run code' }],
          tools: [{ type: 'code_execution_20250825', name: 'code_execution' }],
        })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(Anthropic.BadRequestError);
      const body = (error as InstanceType<typeof Anthropic.BadRequestError>).error as {
        type: string;
        error: { type: string; message: string };
      };
      expect(body.type).toBe('error');
      expect(body.error.type).toBe('invalid_request_error');
      expect(body.error.message).toContain('tools[0]');
    });
  });

  it('Anthropic Messages: a malformed body', async () => {
    await refusedUpstreamFree(async () => {
      const reply = await relayPost(
        f,
        null,
        { model: CLAUDE, max_tokens: 10, messages: [{ role: 'tool', content: 'x' }] },
        { path: '/v1/messages', headers: { 'x-api-key': key, 'anthropic-version': '2023-06-01' } },
      );
      expect(reply.status).toBe(400);
      expect(reply.json).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    });
  });

  it.each([
    [`/v1beta/models/${GEMINI}:generateContent`, { contents: [] }, '"contents" must contain'],
    [`/v1beta/models/${GEMINI}:predict`, { contents: [{ parts: [{ text: 'x' }] }] }, 'not supported'],
    [`/v1beta/models/${GEMINI}:embedContent`, { content: 'x' }, '"content" must be a content'],
  ])('Gemini: %s refused with a Google error', async (path, body, message) => {
    await refusedUpstreamFree(async () => {
      const reply = await relayPost(f, null, body, { path, headers: { 'x-goog-api-key': key } });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
      expect(reply.json.error.message).toContain(message);
    });
  });
});

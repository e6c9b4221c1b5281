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

/** Served by a Gemini channel (natively). */
const GEMINI_EMBEDDING = 'text-embedding-004';
/** Served by an OpenAI channel (converted to /v1/embeddings and back). */
const OPENAI_EMBEDDING = 'text-embedding-3-small';

describe('Gemini :embedContent and :batchEmbedContents', () => {
  let f: RelayFixture;
  let key: string;
  let geminiChannel: number;
  let openAIChannel: number;
  const embed = (model: string, method: string, body: unknown) =>
    relayPost(f, null, body, {
      path: `/v1beta/models/${model}:${method}`,
      headers: { 'x-goog-api-key': key },
    });
  const content = (text: string) => ({ parts: [{ text }] });

  beforeAll(async () => {
    f = await startRelayFixture();
    geminiChannel = await createChannel(f, { name: 'gemini', type: 24, models: GEMINI_EMBEDDING });
    openAIChannel = await createChannel(f, { name: 'openai', type: 1, models: OPENAI_EMBEDDING });
    ({ key } = await createToken(f.root));
  });
  afterAll(async () => f.close());

  it('passes embedContent through to a Gemini channel and bills the local count', async () => {
    const before = await userBalance(f, 1);
    const reply = await embed(GEMINI_EMBEDDING, 'embedContent', {
      content: content('one two three four'),
      outputDimensionality: 8,
    });
    expect(reply.status).toBe(200);
    expect(reply.json.embedding.values).toHaveLength(8);
    const sent = f.mock.lastRequest()!;
    expect(sent.path).toBe(`/v1beta/models/${GEMINI_EMBEDDING}:embedContent`);
    expect(sent.headers['x-goog-api-key']).toBe('sk-mock-upstream');
    const log = (await settledLogs(f)).at(-1)!;
    expect(log).toMatchObject({
      model_name: GEMINI_EMBEDDING,
      channel_id: geminiChannel,
      completion_tokens: 0,
    });
    expect(log.prompt_tokens).toBeGreaterThan(0);
    expect(JSON.parse(log.other!).usage_source).toBe('local');
    const after = await userBalance(f, 1);
    expect(before.quota - after.quota).toBe(log.quota);
  });

  it('passes batchEmbedContents through, one vector per request', async () => {
    const reply = await embed(GEMINI_EMBEDDING, 'batchEmbedContents', {
      requests: [
        { model: `models/${GEMINI_EMBEDDING}`, content: content('first') },
        { model: `models/${GEMINI_EMBEDDING}`, content: content('second') },
      ],
    });
    expect(reply.status).toBe(200);
    expect(reply.json.embeddings).toHaveLength(2);
  });

  it('converts both methods for an OpenAI embeddings channel, billed by its usage', async () => {
    const single = await embed(OPENAI_EMBEDDING, 'embedContent', {
      content: content('alpha beta'),
      outputDimensionality: 4,
    });
    expect(single.status).toBe(200);
    expect(single.json.embedding.values).toHaveLength(4);
    expect(f.mock.lastRequest()!.path).toBe('/v1/embeddings');
    expect(f.mock.lastRequest()!.body).toEqual({
      model: OPENAI_EMBEDDING,
      input: ['alpha beta'],
      encoding_format: 'float',
      dimensions: 4,
    });
    const batch = await embed(OPENAI_EMBEDDING, 'batchEmbedContents', {
      requests: [{ content: content('one') }, { content: content('two three') }],
    });
    expect(batch.status).toBe(200);
    expect(batch.json.embeddings.map((item: { values: number[] }) => item.values.length)).toEqual([16, 16]);
    const log = (await settledLogs(f)).at(-1)!;
    // The mock counts one token per word: 1 + 2.
    expect(log).toMatchObject({ model_name: OPENAI_EMBEDDING, channel_id: openAIChannel, prompt_tokens: 3 });
    expect(JSON.parse(log.other!).usage_source).toBe('upstream');
  });

  it('refuses a malformed request with a Google error, before any upstream call', async () => {
    f.mock.clearRequests();
    const reply = await embed(GEMINI_EMBEDDING, 'batchEmbedContents', { requests: [] });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toMatchObject({ code: 400, status: 'INVALID_ARGUMENT' });
    expect(reply.json.error.message).toContain('"requests" must be a non-empty array');
    expect(f.mock.requests).toHaveLength(0);
  });
});

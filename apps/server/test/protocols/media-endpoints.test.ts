import OpenAI from 'openai';
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

describe('images, speech and rerank through the relay', () => {
  let f: RelayFixture;
  let key: string;
  let client: OpenAI;
  let channelId: number;

  beforeAll(async () => {
    f = await startRelayFixture();
    channelId = await createChannel(f, { models: 'dall-e-3,tts-1,jina-reranker-v2-base-multilingual' });
    const ratios = f.t.app.services.options.getJson<Record<string, number>>('ModelRatio');
    await setOption(
      f,
      'ModelRatio',
      JSON.stringify({ ...ratios, 'jina-reranker-v2-base-multilingual': 0.01 }),
    );
    ({ key } = await createToken(f.root));
    client = new OpenAI({ apiKey: key, baseURL: `${f.baseUrl}/v1`, maxRetries: 0 });
  });
  afterAll(async () => f.close());

  it('generates images and charges the per-image price × size × quality × n', async () => {
    const before = await userBalance(f, 1);
    const images = await client.images.generate({
      model: 'dall-e-3',
      prompt: 'a lighthouse',
      n: 1,
      size: '1792x1024',
      quality: 'hd',
      response_format: 'b64_json',
    });
    expect(images.data?.[0]?.b64_json).toBeTruthy();
    const log = (await settledLogs(f)).at(-1)!;
    // 0.04 $ × size 2 × hd-wide 1.5 × 1 image × 500 000.
    expect(log).toMatchObject({ model_name: 'dall-e-3', quota: 60_000, channel_id: channelId });
    expect(log.content).toContain('图片 1 张');
    const after = await userBalance(f, 1);
    expect(before.quota - after.quota).toBe(60_000);
  });

  it('streams speech bytes back and bills the characters of the input', async () => {
    const before = await userBalance(f, 1);
    const response = await client.audio.speech.create({
      model: 'tts-1',
      voice: 'alloy',
      input: 'hello there',
    });
    const audio = Buffer.from(await response.arrayBuffer());
    expect(audio.length).toBeGreaterThan(0);
    expect(response.headers.get('content-type')).toMatch(/^audio\//);
    const log = (await settledLogs(f)).at(-1)!;
    // 11 characters × ratio 7.5.
    expect(log).toMatchObject({ model_name: 'tts-1', prompt_tokens: 11, quota: 83 });
    expect(before.quota - (await userBalance(f, 1)).quota).toBe(83);
  });

  it('reranks and bills the upstream usage', async () => {
    const reply = await relayPost(
      f,
      key,
      {
        model: 'jina-reranker-v2-base-multilingual',
        query: 'capital of France',
        documents: ['Paris is the capital of France', 'Berlin is in Germany'],
        top_n: 1,
      },
      { path: '/v1/rerank' },
    );
    expect(reply.status, reply.text).toBe(200);
    expect(reply.json.results).toHaveLength(1);
    const log = (await settledLogs(f)).at(-1)!;
    expect(log.model_name).toBe('jina-reranker-v2-base-multilingual');
    expect(log.prompt_tokens).toBeGreaterThan(0);
  });

  it('refuses a malformed image request before reserving anything', async () => {
    const before = await userBalance(f, 1);
    const reply = await relayPost(
      f,
      key,
      { model: 'dall-e-3', prompt: 42 },
      { path: '/v1/images/generations' },
    );
    expect(reply.status).toBe(400);
    expect(reply.json.error.message).toMatch(/prompt/);
    expect((await userBalance(f, 1)).quota).toBe(before.quota);
  });

  it('answers 501 for the OpenAI endpoints the gateway does not serve', async () => {
    const reply = await relayPost(f, key, {}, { path: '/v1/files' });
    expect(reply.status).toBe(501);
    expect(reply.json.error.code).toBe('api_not_implemented');
  });
});

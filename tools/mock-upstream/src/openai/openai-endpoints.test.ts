import { describe, expect, it } from 'vitest';
import { parseServerSentJson } from '../server-sent-events.ts';
import { openAiHeaders, postJson, testFetch, useMockUpstream } from '../testing-helpers.ts';
import { mockPngBase64 } from './openai-media-handlers.ts';

const mock = useMockUpstream();

const get = (path: string, headers: Record<string, string> = openAiHeaders) =>
  testFetch(`${mock.current.url}${path}`, { headers });

describe('OpenAI endpoints besides chat', () => {
  it('POST /v1/completions answers JSON and streams with include_usage', async () => {
    const json = await (
      await postJson(mock.current, '/v1/completions', {
        model: 'gpt-3.5-turbo-instruct',
        prompt: 'Say this is a test',
      })
    ).json();
    expect(json).toMatchObject({
      object: 'text_completion',
      choices: [
        {
          text: 'Hello from mock gpt-3.5-turbo-instruct: Say this is a test',
          index: 0,
          finish_reason: 'stop',
        },
      ],
      usage: { prompt_tokens: 5, completion_tokens: 9, total_tokens: 14 },
    });
    const text = await (
      await postJson(mock.current, '/v1/completions', {
        model: 'm',
        prompt: 'x',
        stream: true,
        stream_options: { include_usage: true },
      })
    ).text();
    const chunks = parseServerSentJson(text) as { choices: { text: string }[]; usage?: unknown }[];
    expect(chunks.map((chunk) => chunk.choices[0]?.text ?? '').join('')).toBe('Hello from mock m: x');
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 1, completion_tokens: 5 } });
  });

  it('POST /v1/embeddings returns deterministic unit vectors, as floats or base64', async () => {
    const request = {
      model: 'text-embedding-3-small',
      input: ['hello world', 'second input here'],
      dimensions: 8,
    };
    const first = await (await postJson(mock.current, '/v1/embeddings', request)).json();
    const second = await (await postJson(mock.current, '/v1/embeddings', request)).json();
    expect(first).toEqual(second);
    expect(first).toMatchObject({
      object: 'list',
      model: 'text-embedding-3-small',
      usage: { prompt_tokens: 5, total_tokens: 5 },
    });
    const vector = first.data[0].embedding as number[];
    expect(vector).toHaveLength(8);
    expect(Math.hypot(...vector)).toBeCloseTo(1, 5);
    expect(first.data[1].embedding).not.toEqual(vector);
    const encoded = await (
      await postJson(mock.current, '/v1/embeddings', { ...request, encoding_format: 'base64' })
    ).json();
    const bytes = Buffer.from(encoded.data[0].embedding, 'base64');
    const decoded = Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4));
    expect(decoded).toEqual(vector);
    const tokens = await (
      await postJson(mock.current, '/v1/embeddings', { model: 'm', input: [1, 2, 3] })
    ).json();
    expect(tokens.usage.prompt_tokens).toBe(3);
    expect(tokens.data[0].embedding).toHaveLength(16);
  });

  it('GET /v1/models lists models and GET /v1/models/{id} describes one', async () => {
    const list = await (await get('/v1/models')).json();
    expect(list.object).toBe('list');
    expect(list.data).toContainEqual({
      id: 'gpt-4o',
      object: 'model',
      created: expect.any(Number),
      owned_by: 'system',
    });
    expect(await (await get('/v1/models/my-model')).json()).toMatchObject({
      id: 'my-model',
      object: 'model',
    });
  });

  it('POST /v1/images/generations returns URLs that the mock serves, or base64', async () => {
    const urls = await (
      await postJson(mock.current, '/v1/images/generations', { model: 'dall-e-3', prompt: 'a red fox', n: 2 })
    ).json();
    expect(urls.data).toHaveLength(2);
    expect(urls.data[0].revised_prompt).toBe('a red fox');
    const image = await testFetch(urls.data[0].url);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await image.arrayBuffer()).toString('base64')).toBe(mockPngBase64);
    const gptImage = await (
      await postJson(mock.current, '/v1/images/generations', { model: 'gpt-image-1', prompt: 'a red fox' })
    ).json();
    expect(gptImage.data[0].b64_json).toBe(mockPngBase64);
    expect(gptImage.usage).toMatchObject({ input_tokens: 3, output_tokens: 272, total_tokens: 275 });
  });

  it('POST /v1/moderations returns one unflagged result per input', async () => {
    const json = await (
      await postJson(mock.current, '/v1/moderations', { model: 'omni-moderation-latest', input: ['a', 'b'] })
    ).json();
    expect(json.id).toMatch(/^modr-/);
    expect(json.results).toHaveLength(2);
    expect(json.results[0]).toMatchObject({ flagged: false, categories: { violence: false } });
  });

  it('POST /v1/audio/speech returns audio bytes of the requested format', async () => {
    const mp3 = await postJson(mock.current, '/v1/audio/speech', {
      model: 'tts-1',
      input: 'hello',
      voice: 'alloy',
    });
    expect(mp3.headers.get('content-type')).toBe('audio/mpeg');
    expect((await mp3.arrayBuffer()).byteLength).toBeGreaterThan(1000);
    const wav = await postJson(mock.current, '/v1/audio/speech', {
      model: 'tts-1',
      input: 'hello',
      voice: 'alloy',
      response_format: 'wav',
    });
    expect(wav.headers.get('content-type')).toBe('audio/wav');
    expect(
      Buffer.from(await wav.arrayBuffer())
        .subarray(0, 4)
        .toString('ascii'),
    ).toBe('RIFF');
  });

  it('POST /v1/rerank sorts documents by relevance and reports prompt tokens', async () => {
    const json = await (
      await postJson(mock.current, '/v1/rerank', {
        model: 'jina-reranker-v2',
        query: 'red fox',
        documents: ['a blue whale', 'the red fox jumps', { text: 'a red car' }],
        top_n: 2,
      })
    ).json();
    expect(json.results.map((result: { index: number }) => result.index)).toEqual([1, 2]);
    expect(json.results[0].document).toEqual({ text: 'the red fox jumps' });
    expect(json.results[0].relevance_score).toBeGreaterThan(json.results[1].relevance_score);
    expect(json.usage).toEqual({ prompt_tokens: 2 + 3 + 4 + 3, total_tokens: 12 });
  });

  it('GET /dashboard/billing/* reports a plausible balance, or the one a scenario asks for', async () => {
    const subscription = await (await get('/dashboard/billing/subscription')).json();
    const usage = await (
      await get('/v1/dashboard/billing/usage?start_date=2024-01-01&end_date=2024-02-01')
    ).json();
    expect(subscription.hard_limit_usd - usage.total_usage / 100).toBe(75);
    const custom = await (await get('/__mock/balance-42/dashboard/billing/subscription')).json();
    const customUsage = await (await get('/__mock/balance-42/dashboard/billing/usage')).json();
    expect(custom.hard_limit_usd - customUsage.total_usage / 100).toBe(42);
  });

  it('requires a Bearer key and rejects sk-invalid with the real OpenAI error', async () => {
    const missing = await testFetch(`${mock.current.url}/v1/models`);
    expect(missing.status).toBe(401);
    expect((await missing.json()).error.type).toBe('invalid_request_error');
    const invalid = await postJson(
      mock.current,
      '/v1/chat/completions',
      { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }] },
      { authorization: 'Bearer sk-invalid' },
    );
    expect(invalid.status).toBe(401);
    const body = await invalid.json();
    expect(Object.keys(body.error)).toEqual(['message', 'type', 'param', 'code']);
    expect(body.error).toMatchObject({ type: 'invalid_request_error', param: null, code: 'invalid_api_key' });
  });

  it('answers unknown paths and invalid JSON with OpenAI-shaped errors', async () => {
    const unknown = await postJson(mock.current, '/v1/unknown', {});
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.message).toBe('Invalid URL (POST /v1/unknown)');
    const broken = await testFetch(`${mock.current.url}/v1/chat/completions`, {
      method: 'POST',
      headers: openAiHeaders,
      body: '{"model":',
    });
    expect(broken.status).toBe(400);
    expect((await broken.json()).error.type).toBe('invalid_request_error');
  });
});

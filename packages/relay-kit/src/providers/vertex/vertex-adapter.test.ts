import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseGeminiRequest } from '../../protocols/gemini/gemini-codec.js';
import { parseOpenAIChatRequest } from '../../protocols/openai-chat/openai-chat-codec.js';
import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { createSseParserStream } from '../../sse/sse-parser.js';
import {
  collectStream,
  loadChunksFixture,
  loadJsonFixture,
  streamOf,
  toBytes,
} from '../../testing/sse-fixtures.js';
import { createVertexTokenSource } from './vertex-access-token.js';
import { createVertexAdapter, readVertexAuth } from './vertex-adapter.js';

const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const key = JSON.stringify({
  project_id: 'sy-proj',
  private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  client_email: 'relay@sy-proj.iam.gserviceaccount.com',
});
let exchanges = 0;
const fetch = (async (input: string | URL | Request) => {
  expect(String(input)).toBe('https://oauth2.googleapis.com/token');
  exchanges++;
  return Response.json({ access_token: 'ya29.vertex', expires_in: 3600 });
}) as typeof globalThis.fetch;
const adapter = createVertexAdapter(createVertexTokenSource());
const fixture = (folder: string, name: string) =>
  new URL(`../${folder}/__fixtures__/${name}`, import.meta.url);

async function prepared(other: string, extra: Partial<ChannelRuntime> = {}): Promise<ChannelRuntime> {
  return adapter.prepareChannel!({ type: 41, key, other, ...extra }, fetch);
}
const chat = (model: string, body: Record<string, unknown> = {}) =>
  parseOpenAIChatRequest({ json: { model, messages: [{ role: 'user', content: 'hi' }], ...body } });

describe('vertexAdapter.prepareChannel and Gemini mode', () => {
  it('attaches the access token (not serialised) and builds regional URLs', async () => {
    const channel = await prepared('us-east5');
    expect(readVertexAuth(channel)).toEqual({ accessToken: 'ya29.vertex', projectId: 'sy-proj' });
    expect(JSON.stringify(channel)).not.toContain('ya29');
    await prepared('us-east5');
    expect(exchanges).toBe(1);
    const request = adapter.buildRequest(chat('gemini-2.5-pro', { stream: true, max_tokens: 10 }), channel);
    expect(request.url).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/sy-proj/locations/us-east5/publishers/google/models/gemini-2.5-pro:streamGenerateContent?alt=sse',
    );
    expect(request.headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer ya29.vertex',
    });
    const body = JSON.parse(String(request.body));
    expect(body.contents).toEqual([{ role: 'user', parts: [{ text: 'hi' }] }]);
    expect(body.generationConfig).toEqual({ maxOutputTokens: 10 });
    expect(body.safetySettings).toHaveLength(5);
  });

  it('picks the region per model from a JSON map, with global on the global host', async () => {
    const channel = await prepared('{"default":"europe-west4","gemini-2.5-flash":"global"}');
    expect(adapter.buildRequest(chat('gemini-2.5-flash'), channel).url).toBe(
      'https://aiplatform.googleapis.com/v1/projects/sy-proj/locations/global/publishers/google/models/gemini-2.5-flash:generateContent',
    );
    expect(adapter.buildRequest(chat('gemini-2.0-flash'), channel).url).toContain(
      'https://europe-west4-aiplatform.googleapis.com/v1/projects/sy-proj/locations/europe-west4/',
    );
    const noDefault = await prepared('{"gemini-x":"us-east1"}');
    expect(() => adapter.buildRequest(chat('gemini-2.0-flash'), noDefault)).toThrow(
      'the Vertex AI channel region setting has no region for gemini-2.0-flash and no "default"',
    );
    expect(() => adapter.buildRequest(chat('gemini-2.0-flash'), { ...noDefault, other: '{bad' })).toThrow(
      /neither a region nor valid JSON/,
    );
  });

  it('forwards native Gemini bodies byte-exact and needs prepareChannel', async () => {
    const raw = toBytes('{"contents":[{"parts":[{"text":"hi"}]}]}');
    const call = parseGeminiRequest({
      rawBody: raw,
      path: '/v1beta/models/gemini-2.0-flash:generateContent',
    });
    const channel = await prepared('', {
      baseUrl: 'http://127.0.0.1:9999/',
      headerOverride: { 'x-trace': '{api_key}' },
    });
    const request = adapter.buildRequest(call, channel);
    expect(request.body).toBe(raw);
    expect(request.url).toBe(
      'http://127.0.0.1:9999/v1/projects/sy-proj/locations/us-central1/publishers/google/models/gemini-2.0-flash:generateContent',
    );
    expect(request.headers['x-trace']).toBe('ya29.vertex');
    expect(() => adapter.buildRequest(call, { type: 41, key })).toThrow(/prepareChannel/);
    await expect(adapter.prepareChannel!({ type: 41, key: 'not json' }, fetch)).rejects.toMatchObject({
      code: 'channel:invalid_key',
    });
  });
});

describe('vertexAdapter Claude mode', () => {
  it('converts chat to an Anthropic body on rawPredict / streamRawPredict', async () => {
    const channel = await prepared('us-east5', { modelMapping: { sonnet: 'claude-3-5-sonnet-20241022' } });
    const request = adapter.buildRequest(chat('sonnet', { stream: true, max_tokens: 100 }), channel);
    expect(request.url).toBe(
      'https://us-east5-aiplatform.googleapis.com/v1/projects/sy-proj/locations/us-east5/publishers/anthropic/models/claude-3-5-sonnet-v2@20241022:streamRawPredict',
    );
    expect(request.upstreamModel).toBe('claude-3-5-sonnet-v2@20241022');
    expect(request.headers.authorization).toBe('Bearer ya29.vertex');
    expect(request.headers['x-api-key']).toBeUndefined();
    const body = JSON.parse(String(request.body));
    expect(body).toMatchObject({
      anthropic_version: 'vertex-2023-10-16',
      messages: [{ role: 'user', content: 'hi' }],
      max_tokens: 100,
      stream: true,
    });
    expect(body.model).toBeUndefined();
    const plain = adapter.buildRequest(chat('claude-3-5-haiku-20241022'), channel);
    expect(plain.url.endsWith('/publishers/anthropic/models/claude-3-5-haiku@20241022:rawPredict')).toBe(
      true,
    );
    const gemini = parseGeminiRequest({
      json: { contents: [{ parts: [{ text: 'x' }] }] },
      path: '/v1beta/models/claude-3-5-haiku-20241022:generateContent',
    });
    expect(() => adapter.buildRequest(gemini, channel)).toThrow(
      'Claude models on Vertex AI do not accept gemini requests',
    );
  });

  it('reads Anthropic and Gemini streams and bodies by their shape', async () => {
    const call = chat('claude-sonnet-4', { stream: true });
    const anthropic = await collectStream(
      streamOf([toBytes(readFileSync(fixture('anthropic', 'anthropic-stream-text.sse'), 'utf8'))])
        .pipeThrough(createSseParserStream())
        .pipeThrough(adapter.toStreamParts(call)),
    );
    const text = (parts: StreamPart[]) =>
      parts.flatMap((part) => (part.type === 'text-delta' ? [part.delta] : [])).join('');
    expect(anthropic[0]).toMatchObject({ type: 'message-start', model: 'claude-sonnet-4-20250514' });
    expect(text(anthropic).length).toBeGreaterThan(0);
    expect(anthropic.some((part) => part.type === 'finish')).toBe(true);
    const gemini = await collectStream(
      streamOf([toBytes(loadChunksFixture(fixture('gemini', 'gemini-stream.chunks.txt')))])
        .pipeThrough(createSseParserStream())
        .pipeThrough(adapter.toStreamParts(call)),
    );
    expect(text(gemini)).toBe('Hello! How can I "help" you today? 👋');
    const empty = await collectStream(streamOf([]).pipeThrough(adapter.toStreamParts(call)));
    expect(empty.map((part) => part.type)).toEqual(['error']);
    const message = adapter.toResponse(loadJsonFixture(fixture('anthropic', 'anthropic-message.json')), call);
    expect(message.choices[0]?.text).toBe('Hello! How can I help you today?');
    const generated = adapter.toResponse(loadJsonFixture(fixture('gemini', 'gemini-generate.json')), call);
    expect(generated.choices[0]?.text).toBe('Paris is the capital of France.');
    expect(adapter.readUsage('{"usageMetadata":{"promptTokenCount":3}}')?.inputTokens.total).toBe(3);
    expect(
      adapter.readUsage('{"type":"message","usage":{"input_tokens":4,"output_tokens":1}}')?.inputTokens.total,
    ).toBe(4);
  });
});

import type Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { decodeEventStreamMessages } from './bedrock/aws-event-stream-encoder.ts';
import { parseServerSentEvents, parseServerSentJson } from './server-sent-events.ts';
import { testFetch, useMockUpstream } from './testing-helpers.ts';

const mock = useMockUpstream();
const post = (path: string, headers: Record<string, string>, body: string) =>
  testFetch(`${mock.current.url}${path}`, { method: 'POST', headers, body });
const json = { 'content-type': 'application/json' };
const chat = JSON.stringify({ messages: [{ role: 'user', content: 'hi azure' }] });

describe('Azure OpenAI deployments', () => {
  const path = '/openai/deployments/gpt-4o-mini/chat/completions?api-version=2024-12-01-preview';

  it('answers chat for the deployment with an api-key header', async () => {
    const reply = await post(path, { ...json, 'api-key': 'azure-key' }, chat);
    expect(reply.status).toBe(200);
    const body = await reply.json();
    expect(body.choices[0].message.content).toBe('Hello from mock gpt-4o-mini: hi azure');
    expect(mock.current.lastRequest()?.path).toBe('/openai/deployments/gpt-4o-mini/chat/completions');
  });

  it('refuses a missing api-key, a bearer token and a missing api-version', async () => {
    expect((await post(path, json, chat)).status).toBe(401);
    expect((await post(path, { ...json, authorization: 'Bearer sk-test' }, chat)).status).toBe(401);
    const noVersion = await post(path.split('?')[0]!, { ...json, 'api-key': 'k' }, chat);
    expect(noVersion.status).toBe(404);
    expect((await noVersion.json()).error.message).toBe('Resource not found');
  });
});

function assertion(claims: Record<string, unknown>): string {
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode(claims)}.c2lnbmF0dXJl`;
}

async function accessToken(iss = 'sa@project.iam.gserviceaccount.com'): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const form = new URLSearchParams({
    grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
    assertion: assertion({
      iss,
      scope: 'cloud-platform',
      aud: `${mock.current.url}/token`,
      iat: now,
      exp: now + 3600,
    }),
  });
  const reply = await post(
    '/token',
    { 'content-type': 'application/x-www-form-urlencoded' },
    form.toString(),
  );
  const body = await reply.json();
  expect(reply.status, JSON.stringify(body)).toBe(200);
  return body.access_token;
}

describe('Vertex AI and the Google token stand-in', () => {
  const base = '/v1/projects/demo/locations/us-central1/publishers';

  it('issues access tokens for well-formed assertions only', async () => {
    expect(await accessToken()).toMatch(/^ya29\.mock-[0-9a-f]{24}$/);
    const now = Math.floor(Date.now() / 1000);
    const wrongAudience = new URLSearchParams({
      grant_type: 'urn:ietf:params:oauth:grant-type:jwt-bearer',
      assertion: assertion({ iss: 'x', scope: 's', aud: 'https://elsewhere/token', iat: now, exp: now + 60 }),
    });
    const reply = await post(
      '/token',
      { 'content-type': 'application/x-www-form-urlencoded' },
      wrongAudience.toString(),
    );
    expect(reply.status).toBe(400);
    expect((await reply.json()).error).toBe('invalid_grant');
  });

  it('serves Gemini models with the issued bearer token, JSON and SSE', async () => {
    const token = await accessToken();
    const body = JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi vertex' }] }] });
    const reply = await post(
      `${base}/google/models/gemini-2.0-flash:generateContent`,
      { ...json, authorization: `Bearer ${token}` },
      body,
    );
    const result = await reply.json();
    expect(result.candidates[0].content.parts[0].text).toBe('Hello from mock gemini-2.0-flash: hi vertex');
    const stream = await post(
      `${base}/google/models/gemini-2.0-flash:streamGenerateContent?alt=sse`,
      { ...json, authorization: `Bearer ${token}` },
      body,
    );
    const chunks = parseServerSentJson(await stream.text()) as {
      usageMetadata?: { totalTokenCount?: number };
    }[];
    expect(chunks.at(-1)?.usageMetadata?.totalTokenCount).toBeGreaterThan(0);
    const foreign = await post(
      `${base}/google/models/gemini-2.0-flash:generateContent`,
      { ...json, authorization: 'Bearer abc' },
      body,
    );
    expect(foreign.status).toBe(401);
  });

  it('serves Claude through rawPredict and streamRawPredict (Anthropic SDK shapes)', async () => {
    const token = await accessToken();
    const headers = { ...json, authorization: `Bearer ${token}` };
    const body = {
      anthropic_version: 'vertex-2023-10-16',
      max_tokens: 50,
      messages: [{ role: 'user', content: 'hi claude' }],
    };
    const reply = await post(
      `${base}/anthropic/models/claude-3-5-haiku@20241022:rawPredict`,
      headers,
      JSON.stringify(body),
    );
    const message = (await reply.json()) as Anthropic.Message;
    expect(message.content[0]).toMatchObject({
      type: 'text',
      text: 'Hello from mock claude-3-5-haiku@20241022: hi claude',
    });
    const stream = await post(
      `${base}/anthropic/models/claude-3-5-haiku@20241022:streamRawPredict`,
      headers,
      JSON.stringify({ ...body, stream: true }),
    );
    expect(parseServerSentEvents(await stream.text()).at(-1)?.event).toBe('message_stop');
    const withoutVersion = await post(
      `${base}/anthropic/models/claude-3-5-haiku@20241022:rawPredict`,
      headers,
      JSON.stringify({ ...body, anthropic_version: undefined }),
    );
    expect(withoutVersion.status).toBe(400);
  });
});

describe('Bedrock runtime', () => {
  const model = encodeURIComponent('anthropic.claude-3-5-sonnet-20241022-v2:0');
  const signed = (accessKey = 'AKIDEXAMPLE') => ({
    ...json,
    'x-amz-date': '20250101T000000Z',
    authorization: `AWS4-HMAC-SHA256 Credential=${accessKey}/20250101/us-east-1/bedrock/aws4_request, SignedHeaders=content-type;host;x-amz-date, Signature=${'a'.repeat(64)}`,
  });
  const body = JSON.stringify({
    anthropic_version: 'bedrock-2023-05-31',
    max_tokens: 100,
    messages: [{ role: 'user', content: 'hi bedrock' }],
  });

  it('invokes Claude and answers the Anthropic message', async () => {
    const reply = await post(`/model/${model}/invoke`, signed(), body);
    const message = await reply.json();
    expect(message.content[0].text).toBe(
      'Hello from mock anthropic.claude-3-5-sonnet-20241022-v2:0: hi bedrock',
    );
    expect(message.usage).toMatchObject({ input_tokens: 5, output_tokens: 6 });
  });

  it('streams event-stream frames with base64 Anthropic events and invocation metrics', async () => {
    const reply = await post(`/model/${model}/invoke-with-response-stream`, signed(), body);
    expect(reply.headers.get('content-type')).toBe('application/vnd.amazon.eventstream');
    const frames = decodeEventStreamMessages(Buffer.from(await reply.arrayBuffer()));
    const events = frames.map((frame) => {
      expect(frame.headers[':event-type']).toBe('chunk');
      const bytes = JSON.parse(frame.payload.toString('utf8')).bytes as string;
      return JSON.parse(Buffer.from(bytes, 'base64').toString('utf8'));
    });
    expect(events[0].type).toBe('message_start');
    const text = events
      .filter((event) => event.delta?.type === 'text_delta')
      .map((event) => event.delta.text)
      .join('');
    expect(text).toBe('Hello from mock anthropic.claude-3-5-sonnet-20241022-v2:0: hi bedrock');
    expect(events.at(-1)).toMatchObject({
      type: 'message_stop',
      'amazon-bedrock-invocationMetrics': { inputTokenCount: 5, outputTokenCount: 6 },
    });
  });

  it('ends a stream with an exception frame for error-event-after-n', async () => {
    const reply = await post(
      `/__mock/error-event-after-2/model/${model}/invoke-with-response-stream`,
      signed(),
      body,
    );
    const frames = decodeEventStreamMessages(Buffer.from(await reply.arrayBuffer()));
    expect(frames.at(-1)?.headers).toMatchObject({
      ':message-type': 'exception',
      ':exception-type': 'internalServerException',
    });
  });

  it('refuses unsigned, badly keyed and malformed requests the AWS way', async () => {
    const unsigned = await post(`/model/${model}/invoke`, json, body);
    expect(unsigned.status).toBe(403);
    expect(unsigned.headers.get('x-amzn-errortype')).toBe('MissingAuthenticationTokenException');
    const invalid = await post(`/model/${model}/invoke`, signed('sk-invalid'), body);
    expect(invalid.headers.get('x-amzn-errortype')).toBe('UnrecognizedClientException');
    const noVersion = await post(
      `/model/${model}/invoke`,
      signed(),
      JSON.stringify({ max_tokens: 1, messages: [] }),
    );
    expect(noVersion.status).toBe(400);
    expect(noVersion.headers.get('x-amzn-errortype')).toBe('ValidationException');
    const throttled = await post(`/__mock/error-429/model/${model}/invoke`, signed(), body);
    expect(throttled.headers.get('x-amzn-errortype')).toBe('ThrottlingException');
    expect(await throttled.json()).toEqual({ message: expect.any(String) });
  });
});

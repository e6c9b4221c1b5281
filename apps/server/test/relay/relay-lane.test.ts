import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseExposition, sampleValue } from '../observability/exposition-format.ts';
import {
  chatBody,
  createChannel,
  createToken,
  expectOpenAIError,
  type RelayFixture,
  relayPost,
  settledLogs,
  startRelayFixture,
} from './relay-support.ts';

/**
 * The relay lane (ADR-44) is the one front door of every relay route, before Fastify, for a
 * request over a socket and for `inject` alike. These tests hold it to what the app answers
 * everywhere: the same answers and envelopes, the request id header, the relay body limit, the
 * client address under TRUSTED_PROXIES, metrics and request logs; and they check that it really
 * is the lane that answers (Fastify's hooks never see relay requests), while everything else
 * (the API, the console) goes through Fastify.
 */
describe('relay lane', () => {
  let f: RelayFixture;
  let key: string;
  const hooked: string[] = [];
  const logLines: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim() !== '') logLines.push(JSON.parse(line));
        done();
      },
    });
    f = await startRelayFixture(
      { RELAY_BODY_LIMIT: '4096' },
      {
        logger: { level: 'info', stream },
        beforeListen: (app) =>
          app.addHook('onRequest', async (request) => {
            hooked.push(request.url);
          }),
      },
    );
    await createChannel(f);
    key = (await createToken(f.root)).key;
  });
  afterAll(async () => f.close());

  /** The request counter of OpenAI-family POSTs answered with `status`, read from /metrics. */
  const requestsCounted = async (status: string) =>
    sampleValue(
      parseExposition((await f.t.app.inject({ method: 'GET', url: '/metrics' })).body),
      'switchyard_http_requests_total',
      { family: 'openai', method: 'POST', status },
    ) ?? 0;

  it('answers relay calls without Fastify, over a socket and through inject alike', async () => {
    hooked.length = 0;
    const reply = await relayPost(f, key, chatBody('gpt-4o-mini', 'hello'));
    expect(reply.status).toBe(200);
    expect(reply.json.choices[0].message.role).toBe('assistant');
    expect(reply.headers.get('x-oneapi-request-id')).toMatch(/^\d{23}[A-Za-z0-9]{8}$/);
    expect(Number(reply.headers.get('x-switchyard-added-ms'))).toBeGreaterThanOrEqual(0);
    // With a query string and a trailing slash too (the router ignores trailing slashes).
    const slashed = await relayPost(f, key, chatBody('gpt-4o-mini', 'hello'), {
      path: '/v1/chat/completions/?trace=1',
    });
    expect(slashed.status).toBe(200);
    expect(hooked).toEqual([]);

    const injected = await f.t.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: chatBody('gpt-4o-mini', 'hello'),
    });
    expect(injected.statusCode).toBe(200);
    expect(injected.headers['x-oneapi-request-id']).toMatch(/^\d{23}[A-Za-z0-9]{8}$/);
    expect(hooked).toEqual([]);
    const logs = await settledLogs(f);
    expect(logs.filter((log) => log.model_name === 'gpt-4o-mini').length).toBeGreaterThanOrEqual(3);
  });

  it('serves every relay route and content type, and leaves the rest to Fastify', async () => {
    hooked.length = 0;
    const plain = await relayPost(f, key, 'not json', { headers: { 'content-type': 'text/plain' } });
    expect(plain.status).toBe(400);
    const models = await fetch(`${f.baseUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    expect(models.status).toBe(200);
    expect(Number(models.headers.get('x-switchyard-added-ms'))).toBeGreaterThanOrEqual(0);
    const gemini = await relayPost(
      f,
      key,
      { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
      { path: '/v1beta/models/gpt-4o-mini:generateContent' },
    );
    expect(gemini.status).toBe(200);
    const playground = await relayPost(f, key, chatBody('gpt-4o-mini', 'hi'), {
      path: '/pg/chat/completions',
    });
    expectOpenAIError(playground, 401);
    expect(hooked).toEqual([]);
    const status = await fetch(`${f.baseUrl}/api/status`);
    expect(status.status).toBe(200);
    const unknown = await relayPost(f, key, chatBody('gpt-4o-mini', 'hi'), { path: '/v1/unknown' });
    expect(unknown.status).toBe(404);
    expect(hooked).toEqual(['/api/status', '/v1/unknown']);
  });

  it('writes errors alike over a socket and through inject: status, envelope and request id, per protocol', async () => {
    const viaLane = await relayPost(f, 'sk-nope', chatBody('gpt-4o-mini', 'hi'));
    const viaFastify = await f.t.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: 'Bearer sk-nope', 'content-type': 'application/json' },
      payload: chatBody('gpt-4o-mini', 'hi'),
    });
    expectOpenAIError(viaLane, 401, '无效的令牌');
    expect(viaLane.status).toBe(viaFastify.statusCode);
    const withoutId = (text: string) => text.replace(/request id: [^)]+/, 'request id: -');
    expect(withoutId(viaLane.text)).toBe(withoutId(viaFastify.body));
    expect(viaLane.json.error.message).toContain(viaLane.headers.get('x-oneapi-request-id'));
    expect(viaLane.headers.get('content-type')).toBe(viaFastify.headers['content-type']);

    // The Anthropic route answers in its own error shape on the lane too.
    const claude = await relayPost(
      f,
      'sk-nope',
      { model: 'claude-x', max_tokens: 8, messages: [] },
      {
        path: '/v1/messages',
      },
    );
    expect(claude.status).toBe(401);
    expect(claude.json).toMatchObject({ type: 'error', error: { type: expect.any(String) } });

    const malformed = await relayPost(f, key, '{"model": ');
    expectOpenAIError(malformed, 400);
  });

  it('refuses a body over the relay limit with 413, declared or not, and keeps serving', async () => {
    const big = chatBody('gpt-4o-mini', 'x'.repeat(8_000));
    expectOpenAIError(await relayPost(f, key, big), 413, '请求体过大');
    // Chunked, with no declared length: refused once the bytes received pass the limit.
    const chunks = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(JSON.stringify(big)));
        controller.close();
      },
    });
    const chunked = await fetch(`${f.baseUrl}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: chunks,
      duplex: 'half',
    } as RequestInit);
    expect(chunked.status).toBe(413);
    expect((await relayPost(f, key, chatBody('gpt-4o-mini', 'small'))).status).toBe(200);
  });

  it('reads the client address through trusted proxies only (token IP allow-list)', async () => {
    const { key: pinned } = await createToken(f.root, { name: 'allow-listed', allow_ips: '203.0.113.7' });
    const forwarded = { 'x-forwarded-for': '203.0.113.7' };
    // Loopback is a trusted proxy by default, so the forwarded address is the client's.
    expect((await relayPost(f, pinned, chatBody('gpt-4o-mini', 'hi'), { headers: forwarded })).status).toBe(
      200,
    );
    expectOpenAIError(await relayPost(f, pinned, chatBody('gpt-4o-mini', 'hi')), 403);
    const spoofed = { 'x-forwarded-for': '203.0.113.7, 198.51.100.1' };
    expectOpenAIError(await relayPost(f, pinned, chatBody('gpt-4o-mini', 'hi'), { headers: spoofed }), 403);
  });

  it('counts lane requests in the metrics and logs them as Fastify does at info', async () => {
    const read = () => requestsCounted('401');
    const before = await read();
    const refused = await relayPost(f, 'sk-nope', chatBody('gpt-4o-mini', 'hi'));
    await expect.poll(read).toBe(before + 1);
    const id = refused.headers.get('x-oneapi-request-id');
    const lines = logLines.filter((line) => line.reqId === id);
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
    expect(lines[1]).toMatchObject({ res: { statusCode: 401 } });
  });

  it('streams a pass-through answer alike over a socket and through inject, counted once', async () => {
    const body = chatBody('gpt-4o-mini', 'hello', { stream: true });
    const viaLane = await relayPost(f, key, body);
    const read = () => requestsCounted('200');
    const before = await read();
    const viaFastify = await f.t.app.inject({
      method: 'POST',
      url: '/v1/chat/completions',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      payload: body,
    });
    for (const [status, headers, text] of [
      [viaLane.status, (name: string) => viaLane.headers.get(name), viaLane.text],
      [
        viaFastify.statusCode,
        (name: string) => viaFastify.headers[name] as string | undefined,
        viaFastify.body,
      ],
    ] as const) {
      expect(status).toBe(200);
      expect(headers('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(headers('cache-control')).toBe('no-cache');
      expect(headers('x-oneapi-request-id')).toMatch(/^\d{23}[A-Za-z0-9]{8}$/);
      expect(Number(headers('x-switchyard-added-ms'))).toBeGreaterThanOrEqual(0);
      expect(text).toContain('"object":"chat.completion.chunk"');
      expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true);
    }
    // The lane counts the injected request once.
    await expect.poll(read).toBe(before + 1);
    expect(await read()).toBe(before + 1);
  });
});

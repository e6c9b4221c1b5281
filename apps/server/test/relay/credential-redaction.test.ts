import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chatBody,
  createChannel,
  createToken,
  type RelayFixture,
  startRelayFixture,
} from './relay-support.ts';

/**
 * Keys sent in the URL never reach the log: every route that takes a token in its query string is
 * called with `?key=` at level info, and the real log output is read back.
 */
describe('credentials in logged URLs', () => {
  let f: RelayFixture;
  let key: string;
  const lines: string[] = [];

  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n')) if (line.trim() !== '') lines.push(line);
        done();
      },
    });
    f = await startRelayFixture({}, { logger: { level: 'info', stream } });
    await createChannel(f);
    await createChannel(f, {
      name: 'gemini',
      type: 24,
      models: 'gemini-2.0-flash',
      key: 'AIzaMockChannelKey000000000000',
    });
    key = (await createToken(f.root)).key;
  });
  afterAll(async () => f.close());

  const secret = () => key.slice(3);
  const call = (method: string, path: string, body?: unknown) =>
    fetch(`${f.baseUrl}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });

  /** The request log's URL of every line about `path` (without the query). */
  const loggedUrls = (path: string) =>
    lines
      .map((line) => JSON.parse(line) as { req?: { url?: string } })
      .flatMap((line) => (line.req?.url?.split('?')[0] === path ? [line.req.url] : []));

  it.each([
    ['POST', '/v1beta/models/gemini-2.0-flash:generateContent', 200],
    ['POST', '/v1beta/models/gemini-2.0-flash:streamGenerateContent', 200],
    ['GET', '/v1beta/models', 200],
    ['GET', '/v1/models', 200],
    ['POST', '/v1/chat/completions', 200],
    ['GET', '/api/log/token', 200],
    ['POST', '/mj/submit/imagine', 200],
  ] as const)('%s %s?key= logs the URL with the key redacted', async (method, path, status) => {
    const gemini = path.startsWith('/v1beta/models/');
    const body =
      method === 'GET'
        ? undefined
        : gemini
          ? { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }
          : path.startsWith('/mj/')
            ? { prompt: 'a cat' }
            : chatBody('gpt-4o-mini', 'hi');
    const query = path.endsWith('streamGenerateContent') ? `?alt=sse&key=${key}` : `?key=${key}`;
    const response = await call(method, `${path}${query}`, body);
    await response.text();
    if (!path.startsWith('/mj/')) expect(response.status).toBe(status);
    await expect.poll(() => loggedUrls(path).length).toBeGreaterThanOrEqual(1);
    for (const url of loggedUrls(path)) expect(url).toMatch(/[?&]key=\[redacted\]/);
    expect(lines.join('\n')).not.toContain(secret());
  });

  it('redacts a token-shaped value under any parameter name, and the other credential names', async () => {
    const response = await call('GET', `/api/status?who=${key}&api_key=a1&token=b2&access_token=c3&p=1`);
    expect(response.status).toBe(200);
    await expect.poll(() => loggedUrls('/api/status').length).toBeGreaterThanOrEqual(1);
    expect(loggedUrls('/api/status')[0]).toBe(
      '/api/status?who=[redacted]&api_key=[redacted]&token=[redacted]&access_token=[redacted]&p=1',
    );
    expect(lines.join('\n')).not.toContain(secret());
  });
});

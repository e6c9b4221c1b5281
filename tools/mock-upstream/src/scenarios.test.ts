import { describe, expect, it } from 'vitest';
import { parseServerSentEvents, parseServerSentJson } from './server-sent-events.ts';
import {
  anthropicHeaders,
  geminiHeaders,
  openAiHeaders,
  postJson,
  testFetch,
  useMockUpstream,
} from './testing-helpers.ts';

const mock = useMockUpstream();

const chat = (content = 'hi', extra: Record<string, unknown> = {}) => ({
  model: 'gpt-4o',
  messages: [{ role: 'user', content }],
  ...extra,
});
const streamChat = (content = 'hi') =>
  chat(content, { stream: true, stream_options: { include_usage: true } });
const claude = (extra: Record<string, unknown> = {}) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  messages: [{ role: 'user', content: 'hi' }],
  ...extra,
});

/** Reads a body until it ends or the connection breaks; reports which happened. */
async function readUntilBroken(response: Response): Promise<{ text: string; broken: boolean }> {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let text = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text, broken: false };
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return { text, broken: true };
  }
}

describe('scenario selection', () => {
  it('reads the x-mock-scenario header, the /__mock/<spec>/ prefix and the [[mock:...]] directive', async () => {
    const byHeader = await postJson(mock.current, '/v1/chat/completions', chat(), {
      ...openAiHeaders,
      'x-mock-scenario': 'error-429',
    });
    expect(byHeader.status).toBe(429);
    const byPath = await postJson(mock.current, '/__mock/error-503/v1/chat/completions', chat());
    expect(byPath.status).toBe(503);
    const byDirective = await postJson(mock.current, '/v1/chat/completions', chat('hi [[mock:error-400]]'));
    expect(byDirective.status).toBe(400);
    expect(mock.current.lastRequest()).toMatchObject({ path: '/v1/chat/completions', scenario: 'error-400' });
  });

  it('uses only the first source found: the header wins over the path and the directive', async () => {
    const response = await postJson(
      mock.current,
      '/__mock/error-500/v1/chat/completions',
      chat('[[mock:error-400]]'),
      {
        ...openAiHeaders,
        'x-mock-scenario': 'no-usage',
      },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).not.toHaveProperty('usage');
  });

  it('tolerates a trailing slash in a channel base URL (double slash)', async () => {
    const response = await postJson(mock.current, '/__mock/error-500//v1/chat/completions', chat());
    expect(response.status).toBe(500);
  });

  it('rejects an unknown scenario token with a 400 naming it', async () => {
    const response = await postJson(mock.current, '/__mock/error-5OO/v1/chat/completions', chat());
    expect(response.status).toBe(400);
    expect((await response.json()).error.message).toContain('error-5oo');
  });
});

describe('error scenarios', () => {
  it.each([400, 401, 404, 429, 500, 503])('error-%i answers with the OpenAI error shape', async (status) => {
    const response = await postJson(mock.current, `/__mock/error-${status}/v1/chat/completions`, chat());
    expect(response.status).toBe(status);
    const body = await response.json();
    expect(Object.keys(body.error)).toEqual(['message', 'type', 'param', 'code']);
  });

  it('uses the Anthropic and Google shapes on their endpoints', async () => {
    const anthropic = await postJson(
      mock.current,
      '/__mock/error-429/v1/messages',
      claude(),
      anthropicHeaders,
    );
    expect(anthropic.status).toBe(429);
    expect(await anthropic.json()).toEqual({
      type: 'error',
      error: { type: 'rate_limit_error', message: expect.any(String) },
    });
    const gemini = await postJson(
      mock.current,
      '/__mock/error-503/v1beta/models/gemini-2.0-flash:generateContent',
      { contents: [{ parts: [{ text: 'hi' }] }] },
      geminiHeaders,
    );
    expect(gemini.status).toBe(503);
    expect(await gemini.json()).toEqual({
      error: { code: 503, message: expect.any(String), status: 'UNAVAILABLE' },
    });
  });

  it('error-quota sends each provider’s out-of-credit error', async () => {
    const openAi = await postJson(mock.current, '/__mock/error-quota/v1/chat/completions', chat());
    expect(openAi.status).toBe(429);
    expect((await openAi.json()).error).toMatchObject({
      type: 'insufficient_quota',
      code: 'insufficient_quota',
    });
    const anthropic = await postJson(
      mock.current,
      '/__mock/error-quota/v1/messages',
      claude(),
      anthropicHeaders,
    );
    expect(anthropic.status).toBe(400);
    expect((await anthropic.json()).error.message).toContain('credit balance is too low');
  });

  it('html-error answers 502 with an HTML page', async () => {
    const response = await postJson(mock.current, '/__mock/html-error/v1/chat/completions', chat());
    expect(response.status).toBe(502);
    expect(response.headers.get('content-type')).toBe('text/html');
    expect(await response.text()).toContain('<title>502 Bad Gateway</title>');
  });
});

describe('usage scenarios', () => {
  it('no-usage omits usage in JSON and streams of every protocol', async () => {
    const json = await (await postJson(mock.current, '/__mock/no-usage/v1/chat/completions', chat())).json();
    expect(json).not.toHaveProperty('usage');
    const stream = await (
      await postJson(mock.current, '/__mock/no-usage/v1/chat/completions', streamChat())
    ).text();
    const chunks = parseServerSentJson(stream) as Record<string, unknown>[];
    expect(chunks.every((chunk) => !('usage' in chunk))).toBe(true);
    expect(stream.endsWith('data: [DONE]\n\n')).toBe(true);
    const anthropic = await (
      await postJson(mock.current, '/__mock/no-usage/v1/messages', claude({ stream: true }), anthropicHeaders)
    ).text();
    expect(anthropic).not.toContain('"usage"');
    expect(anthropic).toContain('event: message_stop');
    const gemini = await (
      await postJson(
        mock.current,
        '/__mock/no-usage/v1beta/models/g:streamGenerateContent?alt=sse',
        { contents: [{ parts: [{ text: 'hi' }] }] },
        geminiHeaders,
      )
    ).text();
    expect(gemini).not.toContain('usageMetadata');
  });

  it('cached-<n> reports cached prompt tokens', async () => {
    const json = await (
      await postJson(mock.current, '/__mock/cached-3/v1/chat/completions', chat('one two three'))
    ).json();
    expect(json.usage).toMatchObject({ prompt_tokens: 6, prompt_tokens_details: { cached_tokens: 3 } });
  });
});

describe('timing scenarios', () => {
  it('slow-first-byte-<ms> delays the response headers', async () => {
    const started = performance.now();
    const response = await postJson(
      mock.current,
      '/__mock/slow-first-byte-120/v1/chat/completions',
      streamChat(),
    );
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
    await response.text();
  });

  it('latency-<ms> delays even an error', async () => {
    const started = performance.now();
    const response = await postJson(
      mock.current,
      '/__mock/latency-120,error-500/v1/chat/completions',
      chat(),
    );
    expect(response.status).toBe(500);
    expect(performance.now() - started).toBeGreaterThanOrEqual(100);
  });

  it('slow-stream-<ms> paces the events while headers come at once', async () => {
    const started = performance.now();
    const response = await postJson(
      mock.current,
      '/__mock/slow-stream-25,chunks-4/v1/chat/completions',
      streamChat(),
    );
    expect(performance.now() - started).toBeLessThan(100);
    const chunks = parseServerSentJson(await response.text());
    expect(chunks).toHaveLength(1 + 4 + 1 + 1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(6 * 25 - 10);
  });

  it('timeout accepts the request and never answers', async () => {
    const started = performance.now();
    const failure = await testFetch(`${mock.current.url}/__mock/timeout/v1/chat/completions`, {
      method: 'POST',
      headers: openAiHeaders,
      body: JSON.stringify(chat()),
      signal: AbortSignal.timeout(150),
    }).catch((error: unknown) => error);
    expect((failure as Error).name).toBe('TimeoutError');
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(mock.current.lastRequest()?.scenario).toBe('timeout');
  });
});

describe('stream shape scenarios', () => {
  it('chunks-<n> sets the number of content chunks', async () => {
    const chunks = parseServerSentJson(
      await (await postJson(mock.current, '/__mock/chunks-50/v1/chat/completions', streamChat())).text(),
    ) as { choices: { delta: { content?: string } }[] }[];
    const contentChunks = chunks.filter((chunk) => chunk.choices[0]?.delta.content);
    expect(contentChunks).toHaveLength(50);
  });

  it('disconnect-after-<n> cuts the socket after n content chunks, without [DONE]', async () => {
    const response = await postJson(
      mock.current,
      '/__mock/disconnect-after-2/v1/chat/completions',
      streamChat(),
    );
    const { text, broken } = await readUntilBroken(response);
    expect(broken).toBe(true);
    expect(text).not.toContain('[DONE]');
    const chunks = parseServerSentJson(text) as { choices: { delta: { content?: string } }[] }[];
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello from');
  });

  it('disconnect-after-<n> also truncates a JSON body', async () => {
    const response = await postJson(mock.current, '/__mock/disconnect-after-0/v1/chat/completions', chat());
    expect((await readUntilBroken(response)).broken).toBe(true);
  });

  it('error-event-after-<n> ends the stream with the protocol’s error event', async () => {
    const openAi = await (
      await postJson(mock.current, '/__mock/error-event-after-1/v1/chat/completions', streamChat())
    ).text();
    const last = parseServerSentJson(openAi).at(-1) as { error?: { type: string } };
    expect(last.error?.type).toBe('server_error');
    const anthropic = parseServerSentEvents(
      await (
        await postJson(
          mock.current,
          '/__mock/error-event-after-1/v1/messages',
          claude({ stream: true }),
          anthropicHeaders,
        )
      ).text(),
    );
    expect(anthropic.at(-1)).toMatchObject({ event: 'error' });
    expect(JSON.parse(anthropic.at(-1)!.data)).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
  });

  it('bad-json-event inserts exactly one malformed data line', async () => {
    const text = await (
      await postJson(mock.current, '/__mock/bad-json-event/v1/chat/completions', streamChat())
    ).text();
    const failures = parseServerSentEvents(text).filter((event) => {
      if (event.data === '[DONE]') return false;
      try {
        JSON.parse(event.data);
        return false;
      } catch {
        return true;
      }
    });
    expect(failures).toHaveLength(1);
    expect(text.endsWith('data: [DONE]\n\n')).toBe(true);
    const json = await postJson(mock.current, '/__mock/bad-json-event/v1/chat/completions', chat());
    await expect(json.json()).rejects.toThrow();
  });

  it('gemini streams honour disconnect and malformed events with CRLF framing', async () => {
    const body = { contents: [{ parts: [{ text: 'hi' }] }] };
    const cut = await postJson(
      mock.current,
      '/__mock/disconnect-after-1/v1beta/models/g:streamGenerateContent?alt=sse',
      body,
      geminiHeaders,
    );
    const { text, broken } = await readUntilBroken(cut);
    expect(broken).toBe(true);
    expect(parseServerSentEvents(text)).toHaveLength(1);
    const malformed = await (
      await postJson(
        mock.current,
        '/__mock/bad-json-event/v1beta/models/g:streamGenerateContent?alt=sse',
        body,
        geminiHeaders,
      )
    ).text();
    expect(malformed).toContain('data: {"candidates":[{"content":{"parts":[{"text":\r\n\r\n');
  });
});

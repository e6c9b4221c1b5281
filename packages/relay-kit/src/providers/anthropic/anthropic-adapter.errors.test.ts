import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseOpenAIChatRequest } from '../../protocols/openai-chat/openai-chat-codec.js';
import { loadJsonFixture } from '../../testing/sse-fixtures.js';
import { anthropicAdapter } from './anthropic-adapter.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const call = parseOpenAIChatRequest({
  json: { model: 'claude-sonnet-4', messages: [{ role: 'user', content: 'hi' }] },
});

describe('anthropicAdapter.parseError', () => {
  it.each([
    ['anthropic-error-overloaded.json', 529, 'upstream:server_error', true, false, 'overloaded_error'],
    ['anthropic-error-invalid-key.json', 401, 'channel:invalid_key', true, true, 'authentication_error'],
    ['anthropic-error-rate-limit.json', 429, 'upstream:rate_limited', true, false, 'rate_limit_error'],
    ['anthropic-error-model-not-found.json', 404, 'channel:model_not_found', true, true, 'not_found_error'],
    [
      'anthropic-error-credit-balance.json',
      400,
      'channel:quota_exhausted',
      true,
      true,
      'invalid_request_error',
    ],
  ])('%s (%i)', (name, status, code, retryable, channelFault, type) => {
    const error = anthropicAdapter.parseError(status, fixture(name), { 'retry-after': '7' });
    expect(error).toMatchObject({ status, code, retryable, channelFault, type });
    expect(error.retryAfterMs).toBe(7000);
    expect(error.message).not.toBe('');
  });

  it('treats a plain 400 as the client fault and masks URLs', () => {
    const error = anthropicAdapter.parseError(
      400,
      '{"type":"error","error":{"type":"invalid_request_error","message":"max_tokens: 100000 > 64000, see https://docs.anthropic.com/x"}}',
    );
    expect(error).toMatchObject({ code: 'upstream:bad_request', retryable: false, channelFault: false });
    expect(error.message).not.toContain('docs.anthropic.com');
    expect(anthropicAdapter.parseError(502, '<html>bad gateway</html>')).toMatchObject({ retryable: true });
  });
});

describe('anthropicAdapter.toResponse and readUsage', () => {
  it('converts a message with thinking and tool use', () => {
    const response = anthropicAdapter.toResponse(
      loadJsonFixture(new URL('./__fixtures__/anthropic-message-thinking-tool-use.json', import.meta.url)),
      call,
    );
    expect(response.id).toBe('msg_01Aq9w938a90dw8q');
    expect(response.choices).toEqual([
      {
        index: 0,
        text: 'Let me check the weather.',
        reasoning: 'The user wants the weather in Paris. I should call get_weather.',
        toolCalls: [
          {
            id: 'toolu_01A09q90qw90lq917835lq9',
            name: 'get_weather',
            arguments: '{"location":"Paris","unit":"celsius"}',
          },
        ],
        finishReason: 'tool-calls',
        rawFinishReason: 'tool_use',
      },
    ]);
    expect(response.usage?.inputTokens.total).toBe(472);
  });

  it('reads body usage with the cache split (input excludes cache)', () => {
    const usage = anthropicAdapter.readUsage(fixture('anthropic-message.json'));
    expect(usage?.inputTokens).toEqual({
      total: 3084,
      uncached: 12,
      cacheRead: 1024,
      cacheWrite: 2048,
      audio: 0,
    });
    expect(usage?.outputTokens.total).toBe(11);
    expect(anthropicAdapter.readUsage('not json')).toBeUndefined();
  });
});

describe('anthropicAdapter.listModels', () => {
  it('follows has_more / last_id with the Anthropic headers', async () => {
    const seen: Array<{ url: string; headers: unknown }> = [];
    const pages = [
      {
        data: [{ id: 'claude-opus-4-1' }, { id: 'claude-sonnet-4' }],
        has_more: true,
        last_id: 'claude-sonnet-4',
      },
      { data: [{ id: 'claude-3-5-haiku' }], has_more: false, last_id: 'claude-3-5-haiku' },
    ];
    const fetch = (async (url: string, init: RequestInit) => {
      seen.push({ url, headers: init.headers });
      return new Response(JSON.stringify(pages[seen.length - 1]), { status: 200 });
    }) as unknown as typeof globalThis.fetch;
    const models = await anthropicAdapter.listModels?.(
      { type: 14, key: 'k1', baseUrl: 'https://p.example/v1' },
      fetch,
    );
    expect(models).toEqual(['claude-opus-4-1', 'claude-sonnet-4', 'claude-3-5-haiku']);
    expect(seen.map((entry) => entry.url)).toEqual([
      'https://p.example/v1/models?limit=1000',
      'https://p.example/v1/models?limit=1000&after_id=claude-sonnet-4',
    ]);
    expect(seen[0]?.headers).toEqual({ 'x-api-key': 'k1', 'anthropic-version': '2023-06-01' });
  });

  it('throws the parsed upstream error', async () => {
    const fetch = (async () =>
      new Response(fixture('anthropic-error-invalid-key.json'), {
        status: 401,
      })) as unknown as typeof globalThis.fetch;
    await expect(anthropicAdapter.listModels?.({ type: 14, key: 'bad' }, fetch)).rejects.toMatchObject({
      code: 'channel:invalid_key',
    });
  });
});

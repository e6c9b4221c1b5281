import { describe, expect, it } from 'vitest';
import { parseAnthropicMessagesRequest } from '../../protocols/anthropic-messages/anthropic-messages-codec.js';
import { parseOpenAIChatRequest } from '../../protocols/openai-chat/openai-chat-codec.js';
import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import { DEFAULT_PROVIDER_SETTINGS, type ProviderSettings } from '../../spec/provider-settings.js';
import { anthropicAdapter } from './anthropic-adapter.js';

const channel: ChannelRuntime = { type: 14, key: 'sk-ant-secret' };
const settings = (claude: Partial<ProviderSettings['claude']>): ProviderSettings => ({
  ...DEFAULT_PROVIDER_SETTINGS,
  claude: { ...DEFAULT_PROVIDER_SETTINGS.claude, ...claude },
});
const native = (body: Record<string, unknown>, headers: Record<string, string> = {}) => {
  const rawBody = new TextEncoder().encode(JSON.stringify(body));
  return parseAnthropicMessagesRequest({ rawBody, headers, path: '/v1/messages' });
};
const bodyOf = (request: { body?: string | Uint8Array | undefined }) =>
  JSON.parse(typeof request.body === 'string' ? request.body : new TextDecoder().decode(request.body));

describe('anthropicAdapter.buildRequest, native Messages', () => {
  const simple = {
    model: 'claude-sonnet-4-20250514',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'hi' }],
  };

  it('forwards the client bytes when nothing changes', () => {
    const call = native(simple, {
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'prompt-caching-2024-07-31',
    });
    const request = anthropicAdapter.buildRequest(call, channel);
    expect(request.body).toBe(call.rawBody);
    expect(request.url).toBe('https://api.anthropic.com/v1/messages');
    expect(request.headers).toEqual({
      'content-type': 'application/json',
      'x-api-key': 'sk-ant-secret',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'prompt-caching-2024-07-31',
    });
    expect(request.upstreamModel).toBe('claude-sonnet-4-20250514');
    expect(request.streamUsageForced).toBe(false);
  });

  it('fills max_tokens from claude.default_max_tokens (model, then default)', () => {
    const { max_tokens: _omit, ...body } = simple;
    const perModel = settings({ defaultMaxTokens: { default: 8192, 'claude-sonnet-4-20250514': 64000 } });
    expect(bodyOf(anthropicAdapter.buildRequest(native(body), channel, perModel)).max_tokens).toBe(64000);
    expect(bodyOf(anthropicAdapter.buildRequest(native(body), channel)).max_tokens).toBe(8192);
    expect(
      bodyOf(anthropicAdapter.buildRequest(native(body), channel, settings({ defaultMaxTokens: {} })))
        .max_tokens,
    ).toBe(8192);
  });

  it('applies model mapping, param override, base URL and header override', () => {
    const request = anthropicAdapter.buildRequest(native(simple), {
      ...channel,
      baseUrl: 'https://proxy.example/',
      modelMapping: { 'claude-sonnet-4-20250514': 'claude-sonnet-4-5' },
      paramOverride: { top_k: 5 },
      headerOverride: { Authorization: 'Bearer {api_key}' },
    });
    expect(request.url).toBe('https://proxy.example/v1/messages');
    expect(bodyOf(request)).toMatchObject({ model: 'claude-sonnet-4-5', top_k: 5, max_tokens: 64 });
    expect(request.upstreamModel).toBe('claude-sonnet-4-5');
    expect(request.headers.authorization).toBe('Bearer sk-ant-secret');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('adds per-model headers, merging anthropic-beta with the client value', () => {
    const modelHeaders = settings({
      modelHeaders: {
        'claude-sonnet-4-20250514': {
          'anthropic-beta': ['context-1m-2025-08-07', 'output-128k-2025-02-19'],
          'X-Team': ['a'],
        },
      },
    });
    const request = anthropicAdapter.buildRequest(
      native(simple, { 'anthropic-beta': 'output-128k-2025-02-19' }),
      channel,
      modelHeaders,
    );
    expect(request.headers['anthropic-beta']).toBe('output-128k-2025-02-19,context-1m-2025-08-07');
    expect(request.headers['x-team']).toBe('a');
  });

  it('turns the -thinking suffix into extended thinking', () => {
    const call = native({
      ...simple,
      model: 'claude-3-7-sonnet-20250219-thinking',
      top_p: 0.5,
      temperature: 0.2,
    });
    const request = anthropicAdapter.buildRequest(call, channel);
    const body = bodyOf(request);
    expect(request.upstreamModel).toBe('claude-3-7-sonnet-20250219');
    expect(body).toMatchObject({
      model: 'claude-3-7-sonnet-20250219',
      max_tokens: 1280,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      temperature: 1,
    });
    expect(body).not.toHaveProperty('top_p');
    const big = anthropicAdapter.buildRequest(
      native({ ...simple, model: 'claude-3-7-sonnet-20250219-thinking', max_tokens: 10000 }),
      channel,
      settings({ thinkingBudgetPercentage: 0.5 }),
    );
    expect(bodyOf(big).thinking).toEqual({ type: 'enabled', budget_tokens: 5000 });
    const off = anthropicAdapter.buildRequest(
      native({ ...simple, model: 'claude-3-7-sonnet-20250219-thinking' }),
      channel,
      settings({ thinkingAdapterEnabled: false }),
    );
    expect(off.upstreamModel).toBe('claude-3-7-sonnet-20250219-thinking');
    expect(off.body).toBeInstanceOf(Uint8Array);
  });
});

describe('anthropicAdapter.buildRequest, chat completions converted', () => {
  const chat = (body: Record<string, unknown>) => parseOpenAIChatRequest({ json: body });

  it('converts messages, tools and fields (golden)', () => {
    const call = chat({
      model: 'claude-opus-4-1',
      stream: true,
      stream_options: { include_usage: true },
      max_tokens: 500,
      temperature: 1.5,
      stop: 'END',
      user: 'user-42',
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Weather',
            parameters: { type: 'object', properties: { location: { type: 'string' } } },
          },
        },
      ],
      tool_choice: 'required',
      parallel_tool_calls: false,
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'developer', content: [{ type: 'text', text: 'Use metric.' }] },
        { role: 'assistant', content: 'Earlier answer' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          ],
        },
        { role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://img.example/cat.jpg' } }] },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"location":"Paris"}' },
            },
            { id: 'call_2', type: 'function', function: { name: 'get_weather', arguments: 'not json' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '21°C' },
        { role: 'tool', tool_call_id: 'call_2', content: [{ type: 'text', text: 'error' }] },
        { role: 'user', content: '' },
      ],
    });
    const request = anthropicAdapter.buildRequest(call, channel);
    expect(request.url).toBe('https://api.anthropic.com/v1/messages');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.warnings).toEqual(['parameter "temperature" above 1 was lowered to 1 for Claude']);
    expect(bodyOf(request)).toEqual({
      model: 'claude-opus-4-1',
      system: 'Be brief.\n\nUse metric.',
      max_tokens: 500,
      stop_sequences: ['END'],
      temperature: 1,
      metadata: { user_id: 'user-42' },
      stream: true,
      tools: [
        {
          name: 'get_weather',
          description: 'Weather',
          input_schema: { type: 'object', properties: { location: { type: 'string' } } },
        },
      ],
      tool_choice: { type: 'any', disable_parallel_tool_use: true },
      messages: [
        { role: 'user', content: '...' },
        { role: 'assistant', content: 'Earlier answer' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Weather?' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
            { type: 'image', source: { type: 'url', url: 'https://img.example/cat.jpg' } },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'call_1', name: 'get_weather', input: { location: 'Paris' } },
            { type: 'tool_use', id: 'call_2', name: 'get_weather', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_1', content: '21°C' },
            { type: 'tool_result', tool_use_id: 'call_2', content: 'error' },
          ],
        },
      ],
    });
  });

  it('uses the default max_tokens, the thinking suffix and reasoning_effort', () => {
    const base = { messages: [{ role: 'user', content: 'hi' }] };
    expect(
      bodyOf(anthropicAdapter.buildRequest(chat({ ...base, model: 'claude-3-5-haiku' }), channel)).max_tokens,
    ).toBe(8192);
    const thinking = bodyOf(
      anthropicAdapter.buildRequest(
        chat({ ...base, model: 'claude-sonnet-4-thinking', max_tokens: 2000, top_p: 0.9 }),
        channel,
      ),
    );
    expect(thinking).toMatchObject({
      model: 'claude-sonnet-4',
      max_tokens: 2000,
      thinking: { type: 'enabled', budget_tokens: 1600 },
      temperature: 1,
    });
    expect(thinking).not.toHaveProperty('top_p');
    const effort = anthropicAdapter.buildRequest(
      chat({ ...base, model: 'claude-sonnet-4', max_tokens: 1000, reasoning_effort: 'low' }),
      channel,
    );
    expect(bodyOf(effort)).toMatchObject({
      thinking: { type: 'enabled', budget_tokens: 2048 },
      max_tokens: 3072,
    });
    expect(effort.warnings).toContain(
      'parameter "max_tokens" was raised to 3072 to exceed the thinking budget',
    );
  });

  it('rejects content Claude cannot take and other protocols', () => {
    const audio = chat({
      model: 'claude-x',
      messages: [
        { role: 'user', content: [{ type: 'input_audio', input_audio: { data: 'x', format: 'wav' } }] },
      ],
    });
    expect(() => anthropicAdapter.buildRequest(audio, channel)).toThrow(
      /messages\[0\]\.content\[0\]: "input_audio" parts cannot be sent to Claude/,
    );
    const embeddings = {
      ...chat({ model: 'c', messages: [{ role: 'user', content: 'x' }] }),
      protocol: 'openai-embeddings' as const,
    };
    expect(() => anthropicAdapter.buildRequest(embeddings, channel)).toThrow(
      /does not support openai-embeddings/,
    );
  });
});

import { describe, expect, it } from 'vitest';
import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import type { Protocol } from '../../spec/protocol.js';
import type { RelayCall } from '../../spec/relay-call.js';
import { isUpstreamError } from '../../spec/upstream-error.js';
import { getProviderAdapter } from '../registry.js';

function callOf(
  protocol: Protocol,
  model: string,
  body: Record<string, unknown> = {},
  extra: Partial<RelayCall> = {},
): RelayCall {
  return {
    protocol,
    model,
    upstreamModel: model,
    stream: false,
    includeUsage: false,
    body: { model, ...body },
    prompt: {},
    ...extra,
  };
}

function build(type: number, call: RelayCall, channel: Partial<ChannelRuntime> = {}) {
  const adapter = getProviderAdapter(type);
  if (adapter === undefined) throw new Error(`type ${type} is not registered`);
  return adapter.buildRequest(call, { type, key: 'k-1', ...channel });
}

const bearer = { authorization: 'Bearer k-1' };

// type, protocol, model, channel, expected URL, expected headers (subset)
const TABLE: Array<[number, Protocol, string, Partial<ChannelRuntime>, string, Record<string, string>]> = [
  [1, 'openai-responses', 'gpt-4.1', {}, 'https://api.openai.com/v1/responses', bearer],
  [1, 'rerank', 'bge', {}, 'https://api.openai.com/v1/rerank', bearer],
  [
    1,
    'openai-chat',
    'gpt-4o',
    { baseUrl: 'https://gateway.ai.cloudflare.com/v1/acc/gw/openai' },
    'https://gateway.ai.cloudflare.com/v1/acc/gw/openai/chat/completions',
    bearer,
  ],
  [
    3,
    'openai-chat',
    'gpt-3.5-turbo',
    { baseUrl: 'https://res.openai.azure.com/' },
    'https://res.openai.azure.com/openai/deployments/gpt-35-turbo/chat/completions?api-version=2024-12-01-preview',
    { 'api-key': 'k-1' },
  ],
  [
    3,
    'openai-embeddings',
    'text-embedding-3-small',
    { baseUrl: 'https://res.openai.azure.com', other: '2024-10-21' },
    'https://res.openai.azure.com/openai/deployments/text-embedding-3-small/embeddings?api-version=2024-10-21',
    { 'api-key': 'k-1' },
  ],
  [
    3,
    'openai-images',
    'dall-e-3',
    { baseUrl: 'https://res.openai.azure.com' },
    'https://res.openai.azure.com/openai/deployments/dall-e-3/images/generations?api-version=2024-12-01-preview',
    { 'api-key': 'k-1' },
  ],
  [
    3,
    'openai-responses',
    'gpt-4.1',
    { baseUrl: 'https://res.openai.azure.com' },
    'https://res.openai.azure.com/openai/v1/responses?api-version=preview',
    { 'api-key': 'k-1' },
  ],
  [
    3,
    'openai-chat',
    'gpt-4o',
    { baseUrl: 'https://gateway.ai.cloudflare.com/v1/acc/gw/azure-openai/res' },
    'https://gateway.ai.cloudflare.com/v1/acc/gw/azure-openai/res/gpt-4o/chat/completions?api-version=2024-12-01-preview',
    { 'api-key': 'k-1' },
  ],
  [4, 'openai-chat', 'llama3.1', {}, 'http://localhost:11434/v1/chat/completions', bearer],
  [
    4,
    'openai-embeddings',
    'nomic-embed-text',
    { baseUrl: 'http://ollama:11434' },
    'http://ollama:11434/v1/embeddings',
    bearer,
  ],
  [6, 'openai-chat', 'gpt-4o', {}, 'https://api.openaimax.com/v1/chat/completions', bearer],
  [7, 'openai-images', 'dall-e-3', {}, 'https://api.ohmygpt.com/v1/images/generations', bearer],
  [
    8,
    'openai-chat',
    'org/m',
    { baseUrl: 'https://host.example/models/{model}/chat' },
    'https://host.example/models/org%2Fm/chat',
    bearer,
  ],
  [9, 'openai-chat', 'gpt-4o', {}, 'https://api.caipacity.com/v1/chat/completions', bearer],
  [12, 'openai-embeddings', 'e', {}, 'https://api.api2gpt.com/v1/embeddings', bearer],
  [13, 'openai-chat', 'gpt-4o', {}, 'https://api.aigc2d.com/v1/chat/completions', bearer],
  [19, 'openai-chat', '360gpt-pro', {}, 'https://api.360.cn/v1/chat/completions', bearer],
  [
    20,
    'openai-chat',
    'openai/gpt-4o',
    {},
    'https://openrouter.ai/api/v1/chat/completions',
    { ...bearer, 'http-referer': 'https://switchyard.local', 'x-title': 'Switchyard' },
  ],
  [22, 'openai-chat', 'fastgpt', {}, 'https://fastgpt.run/api/openapi/v1/chat/completions', bearer],
  [25, 'openai-chat', 'moonshot-v1-8k', {}, 'https://api.moonshot.cn/v1/chat/completions', bearer],
  [27, 'openai-chat', 'sonar', {}, 'https://api.perplexity.ai/chat/completions', bearer],
  [31, 'openai-chat', 'yi-large', {}, 'https://api.lingyiwanwu.com/v1/chat/completions', bearer],
  [34, 'openai-chat', 'command-r', {}, 'https://api.cohere.ai/compatibility/v1/chat/completions', bearer],
  [34, 'rerank', 'rerank-v3.5', {}, 'https://api.cohere.ai/v1/rerank', bearer],
  [35, 'openai-chat', 'abab6.5s-chat', {}, 'https://api.minimax.chat/v1/text/chatcompletion_v2', bearer],
  [38, 'openai-embeddings', 'jina-embeddings-v3', {}, 'https://api.jina.ai/v1/embeddings', bearer],
  [
    39,
    'openai-chat',
    '@cf/meta/llama-3.1-8b-instruct',
    { other: 'acc123' },
    'https://api.cloudflare.com/client/v4/accounts/acc123/ai/v1/chat/completions',
    bearer,
  ],
  [
    39,
    'openai-embeddings',
    '@cf/baai/bge-m3',
    { other: 'acc123' },
    'https://api.cloudflare.com/client/v4/accounts/acc123/ai/v1/embeddings',
    bearer,
  ],
  [40, 'rerank', 'BAAI/bge-reranker-v2-m3', {}, 'https://api.siliconflow.cn/v1/rerank', bearer],
  [40, 'openai-images', 'flux', {}, 'https://api.siliconflow.cn/v1/images/generations', bearer],
  [42, 'openai-chat', 'mistral-small-latest', {}, 'https://api.mistral.ai/v1/chat/completions', bearer],
  [44, 'openai-embeddings', 'm3e-base', {}, 'https://api.moka.ai/embeddings', bearer],
  [
    45,
    'openai-chat',
    'doubao-pro-32k',
    {},
    'https://ark.cn-beijing.volces.com/api/v3/chat/completions',
    bearer,
  ],
  [
    45,
    'openai-chat',
    'bot-20250101-abc',
    {},
    'https://ark.cn-beijing.volces.com/api/v3/bots/chat/completions',
    bearer,
  ],
  [46, 'openai-chat', 'ernie-4.0-8k', {}, 'https://qianfan.baidubce.com/v2/chat/completions', bearer],
  [
    47,
    'rerank',
    'bge-reranker',
    { baseUrl: 'http://xinference:9997' },
    'http://xinference:9997/v1/rerank',
    bearer,
  ],
  [48, 'openai-chat', 'grok-3', {}, 'https://api.x.ai/v1/chat/completions', bearer],
  [
    58,
    'openai-chat',
    'llama-3.3-70b-versatile',
    {},
    'https://api.groq.com/openai/v1/chat/completions',
    bearer,
  ],
];

describe('OpenAI-family vendor URLs and headers', () => {
  it.each(TABLE)('type %i %s %s', (type, protocol, model, channel, url, headers) => {
    const request = build(type, callOf(protocol, model), channel);
    expect(request.url).toBe(url);
    expect(request.headers).toMatchObject(headers);
    expect(getProviderAdapter(type)!.nativeProtocols).toContain(protocol);
  });

  it('omits the bearer header for Ollama without a key, and Azure never sends one', () => {
    expect(build(4, callOf('openai-chat', 'm'), { key: '' }).headers.authorization).toBeUndefined();
    expect(
      build(3, callOf('openai-chat', 'm'), { baseUrl: 'https://r' }).headers.authorization,
    ).toBeUndefined();
  });

  it('takes the Azure api-version from the client query first', () => {
    const call = callOf(
      'openai-chat',
      'gpt-4o',
      {},
      { query: new URLSearchParams('api-version=2025-01-01') },
    );
    expect(build(3, call, { baseUrl: 'https://r', other: '2024-10-21' }).url).toBe(
      'https://r/openai/deployments/gpt-4o/chat/completions?api-version=2025-01-01',
    );
  });

  it.each([
    [3, {}],
    [8, {}],
    [47, {}],
    [39, { other: ' ' }],
  ])('refuses to build for type %i without its required setting', (type, channel) => {
    try {
      build(type, callOf(getProviderAdapter(type)!.nativeProtocols[0]!, 'm'), channel);
      expect.unreachable();
    } catch (error) {
      expect(isUpstreamError(error)).toBe(true);
      expect(error).toMatchObject({ code: 'channel:bad_endpoint', channelFault: true });
    }
  });

  it('applies the grok-3-mini reasoning rules on xAI only', () => {
    const request = build(48, callOf('openai-chat', 'grok-3-mini-high', { messages: [], max_tokens: 100 }));
    expect(request.upstreamModel).toBe('grok-3-mini');
    expect(JSON.parse(request.body as string)).toEqual({
      model: 'grok-3-mini',
      messages: [],
      reasoning_effort: 'high',
      max_completion_tokens: 100,
    });
    const plain = build(48, callOf('openai-chat', 'grok-3', { messages: [], max_tokens: 100 }));
    expect(JSON.parse(plain.body as string).max_tokens).toBe(100);
    // Another vendor leaves the suffix alone.
    expect(build(58, callOf('openai-chat', 'o3-mini-high', { messages: [] })).upstreamModel).toBe(
      'o3-mini-high',
    );
  });

  it('drops and renames what Mistral rejects', () => {
    const request = build(
      42,
      callOf('openai-chat', 'mistral-small-latest', { messages: [], user: 'u', seed: 7, logit_bias: {} }),
    );
    expect(JSON.parse(request.body as string)).toEqual({
      model: 'mistral-small-latest',
      messages: [],
      random_seed: 7,
    });
    expect(request.warnings).toHaveLength(3);
  });

  it('refuses protocols a vendor does not serve', () => {
    expect(() => build(38, callOf('openai-chat', 'm'))).toThrow('does not support openai-chat');
    expect(() => build(27, callOf('openai-responses', 'm'))).toThrow('does not support openai-responses');
  });
});

describe('listModels', () => {
  const fakeFetch = (status: number, body: unknown, seen: string[] = []) =>
    (async (url: string | URL | Request, init?: RequestInit) => {
      seen.push(`${String(url)} ${JSON.stringify(init?.headers)}`);
      return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
    }) as typeof fetch;

  it('reads OpenAI, Ollama, Cohere and Cloudflare lists', async () => {
    const seen: string[] = [];
    const openai = getProviderAdapter(1)!;
    expect(
      await openai.listModels!(
        { type: 1, key: 'sk' },
        fakeFetch(200, { data: [{ id: 'a' }, { id: 'b' }, { id: 'a' }] }, seen),
      ),
    ).toEqual(['a', 'b']);
    expect(seen[0]).toBe('https://api.openai.com/v1/models {"authorization":"Bearer sk"}');
    expect(
      await getProviderAdapter(4)!.listModels!(
        { type: 4, key: '' },
        fakeFetch(200, { models: [{ name: 'llama3.1:8b' }] }, seen),
      ),
    ).toEqual(['llama3.1:8b']);
    expect(seen[1]).toBe('http://localhost:11434/api/tags {}');
    expect(
      await getProviderAdapter(34)!.listModels!(
        { type: 34, key: 'co' },
        fakeFetch(200, { models: [{ name: 'command-r' }] }),
      ),
    ).toEqual(['command-r']);
    expect(
      await getProviderAdapter(39)!.listModels!(
        { type: 39, key: 'cf', other: 'acc' },
        fakeFetch(200, { result: [{ name: '@cf/x' }] }, seen),
      ),
    ).toEqual(['@cf/x']);
    expect(seen[2]?.startsWith('https://api.cloudflare.com/client/v4/accounts/acc/ai/models/search ')).toBe(
      true,
    );
    expect(getProviderAdapter(27)!.listModels).toBeUndefined();
  });

  it('turns failures into upstream errors', async () => {
    const adapter = getProviderAdapter(1)!;
    await expect(
      adapter.listModels!(
        { type: 1, key: 'sk' },
        fakeFetch(401, { error: { message: 'bad key', code: 'invalid_api_key' } }),
      ),
    ).rejects.toMatchObject({ code: 'channel:invalid_key' });
    await expect(adapter.listModels!({ type: 1, key: 'sk' }, fakeFetch(200, '<html>'))).rejects.toMatchObject(
      { code: 'upstream:bad_response' },
    );
    await expect(
      adapter.listModels!({ type: 1, key: 'sk' }, fakeFetch(200, { nothing: true })),
    ).rejects.toMatchObject({ code: 'upstream:bad_response' });
    const failing = (async () => {
      throw Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    }) as typeof fetch;
    await expect(adapter.listModels!({ type: 1, key: 'sk' }, failing)).rejects.toMatchObject({
      code: 'upstream:network_error',
    });
  });
});

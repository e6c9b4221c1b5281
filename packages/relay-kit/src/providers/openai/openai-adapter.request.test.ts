import { describe, expect, it } from 'vitest';
import { parseOpenAIChatRequest } from '../../protocols/openai-chat/openai-chat-codec.js';
import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import type { Protocol } from '../../spec/protocol.js';
import { isRelayRequestError } from '../../spec/request-error.js';
import { toBytes } from '../../testing/sse-fixtures.js';
import { DEEPSEEK_CONFIG } from '../openai-compatible/openai-compatible-providers.js';
import { joinUrl, spliceIntoJsonObject } from './convert-to-openai-request.js';
import { createOpenAIFamilyAdapter, openAIAdapter } from './openai-adapter.js';

const channel: ChannelRuntime = { type: 1, key: 'sk-test-key' };
const decoder = new TextDecoder();

function call(body: Record<string, unknown>, raw = true) {
  const text = JSON.stringify(body);
  return parseOpenAIChatRequest(raw ? { rawBody: toBytes(text) } : { json: body });
}

function bodyOf(request: { body?: string | Uint8Array | undefined }): Record<string, unknown> {
  const body = request.body;
  return JSON.parse(typeof body === 'string' ? body : decoder.decode(body)) as Record<string, unknown>;
}

const messages = [{ role: 'user', content: 'hi' }];

describe('openAIAdapter.buildRequest', () => {
  it('targets the default base URL with bearer auth and forwards the client bytes untouched', () => {
    const relayCall = call({ model: 'gpt-4o-mini', messages });
    const request = openAIAdapter.buildRequest(relayCall, channel);
    expect(request.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(request.method).toBe('POST');
    expect(request.headers).toEqual({
      'content-type': 'application/json',
      authorization: 'Bearer sk-test-key',
    });
    expect(request.body).toBe(relayCall.rawBody);
    expect(request.upstreamModel).toBe('gpt-4o-mini');
    expect(request.streamUsageForced).toBe(false);
    expect(request.warnings).toEqual([]);
  });

  it('uses the channel base URL without doubling /v1 or slashes', () => {
    const relayCall = call({ model: 'm', messages });
    for (const [baseUrl, url] of [
      ['https://proxy.example.com/', 'https://proxy.example.com/v1/chat/completions'],
      ['https://proxy.example.com/v1', 'https://proxy.example.com/v1/chat/completions'],
      ['https://proxy.example.com/v1/', 'https://proxy.example.com/v1/chat/completions'],
      ['https://gw.example.com/openai', 'https://gw.example.com/openai/v1/chat/completions'],
    ] as const) {
      expect(openAIAdapter.buildRequest(relayCall, { ...channel, baseUrl }).url).toBe(url);
    }
    expect(joinUrl('http://localhost:8080//', '/v1/embeddings')).toBe('http://localhost:8080/v1/embeddings');
  });

  it('picks the path from the protocol', () => {
    const paths: Array<[Protocol, string]> = [
      ['openai-completions', '/v1/completions'],
      ['openai-embeddings', '/v1/embeddings'],
      ['openai-moderations', '/v1/moderations'],
      ['openai-images', '/v1/images/generations'],
      ['openai-audio-speech', '/v1/audio/speech'],
    ];
    for (const [protocol, path] of paths) {
      const request = openAIAdapter.buildRequest({ ...call({ model: 'm', messages }), protocol }, channel);
      expect(request.url).toBe(`https://api.openai.com${path}`);
    }
  });

  it('refuses protocols it cannot serve', () => {
    const relayCall = { ...call({ model: 'm', messages }), protocol: 'anthropic-messages' as const };
    try {
      openAIAdapter.buildRequest(relayCall, channel);
      expect.unreachable();
    } catch (error) {
      expect(isRelayRequestError(error)).toBe(true);
      expect((error as { status: number }).status).toBe(501);
    }
  });

  it('sends the organization and applies the header override with the key placeholder', () => {
    const request = openAIAdapter.buildRequest(call({ model: 'm', messages }), {
      ...channel,
      organization: 'org-123',
      headerOverride: { 'X-Title': 'Switchyard', 'X-Key-Echo': 'k={api_key}' },
    });
    expect(request.headers['openai-organization']).toBe('org-123');
    expect(request.headers['x-title']).toBe('Switchyard');
    expect(request.headers['x-key-echo']).toBe('k=sk-test-key');
  });

  it('applies the channel model mapping (exact match only) and reports the upstream model', () => {
    const mapped = { ...channel, modelMapping: { 'gpt-4o': 'gpt-4o-2024-08-06', 'gpt-4': '' } };
    const request = openAIAdapter.buildRequest(call({ model: 'gpt-4o', messages, temperature: 0 }), mapped);
    expect(request.upstreamModel).toBe('gpt-4o-2024-08-06');
    expect(bodyOf(request)).toEqual({ model: 'gpt-4o-2024-08-06', messages, temperature: 0 });
    expect(openAIAdapter.buildRequest(call({ model: 'gpt-4o-mini', messages }), mapped).upstreamModel).toBe(
      'gpt-4o-mini',
    );
    // An empty mapped name is ignored.
    expect(openAIAdapter.buildRequest(call({ model: 'gpt-4', messages }), mapped).upstreamModel).toBe(
      'gpt-4',
    );
  });

  it('shallow-merges the parameter override last, keeping unknown client fields', () => {
    const request = openAIAdapter.buildRequest(
      call({ model: 'm', messages, temperature: 1, top_p: 0, custom_field: { a: 1 } }),
      { ...channel, paramOverride: { temperature: 0.2, seed: 7, model: 'override-model' } },
    );
    expect(bodyOf(request)).toEqual({
      model: 'override-model',
      messages,
      temperature: 0.2,
      top_p: 0,
      custom_field: { a: 1 },
      seed: 7,
    });
    expect(request.upstreamModel).toBe('override-model');
  });

  it('forces stream usage upstream and remembers that the client did not ask for it', () => {
    const relayCall = call({ model: 'gpt-4o', stream: true, messages });
    const request = openAIAdapter.buildRequest(relayCall, channel);
    expect(request.streamUsageForced).toBe(true);
    expect(relayCall.includeUsage).toBe(false);
    // Spliced into the client's bytes rather than re-serialised.
    expect(request.body).toBeInstanceOf(Uint8Array);
    expect(decoder.decode(request.body as Uint8Array)).toBe(
      '{"stream_options":{"include_usage":true},"model":"gpt-4o","stream":true,"messages":[{"role":"user","content":"hi"}]}',
    );
  });

  it('does not force when the client already asked for usage', () => {
    const relayCall = call({
      model: 'gpt-4o',
      stream: true,
      stream_options: { include_usage: true },
      messages,
    });
    const request = openAIAdapter.buildRequest(relayCall, channel);
    expect(relayCall.includeUsage).toBe(true);
    expect(request.streamUsageForced).toBe(false);
    expect(request.body).toBe(relayCall.rawBody);
  });

  it('sets include_usage inside existing stream options', () => {
    const request = openAIAdapter.buildRequest(
      call({ model: 'gpt-4o', stream: true, stream_options: { include_usage: false, other: 1 }, messages }),
      channel,
    );
    expect(request.streamUsageForced).toBe(true);
    expect(bodyOf(request).stream_options).toEqual({ include_usage: true, other: 1 });
  });

  it('forces stream usage on parsed bodies without raw bytes, and never on non-stream calls', () => {
    const parsed = openAIAdapter.buildRequest(
      call({ model: 'gpt-4o', stream: true, messages }, false),
      channel,
    );
    expect(bodyOf(parsed).stream_options).toEqual({ include_usage: true });
    const nonStream = openAIAdapter.buildRequest(call({ model: 'gpt-4o', messages }, false), channel);
    expect(bodyOf(nonStream)).toEqual({ model: 'gpt-4o', messages });
    expect(nonStream.streamUsageForced).toBe(false);
  });

  it('combines mapping, forcing and override in one serialisation', () => {
    const request = openAIAdapter.buildRequest(call({ model: 'a', stream: true, messages }), {
      ...channel,
      modelMapping: { a: 'b' },
      paramOverride: { user: 'gateway' },
    });
    expect(bodyOf(request)).toEqual({
      model: 'b',
      stream: true,
      messages,
      user: 'gateway',
      stream_options: { include_usage: true },
    });
  });

  it('lets a parameter override decide stream_options', () => {
    const request = openAIAdapter.buildRequest(call({ model: 'm', stream: true, messages }), {
      ...channel,
      paramOverride: { stream_options: { include_usage: false } },
    });
    expect(bodyOf(request).stream_options).toEqual({ include_usage: false });
    expect(request.streamUsageForced).toBe(false);
  });

  it('applies reasoning model rules: effort suffix and max_completion_tokens', () => {
    const request = openAIAdapter.buildRequest(
      call({ model: 'o3-mini-high', messages, max_tokens: 100 }),
      channel,
    );
    expect(request.upstreamModel).toBe('o3-mini');
    expect(bodyOf(request)).toEqual({
      model: 'o3-mini',
      messages,
      reasoning_effort: 'high',
      max_completion_tokens: 100,
    });
    expect(request.warnings).toHaveLength(1);
    const plain = openAIAdapter.buildRequest(call({ model: 'gpt-4o', messages, max_tokens: 100 }), channel);
    expect(bodyOf(plain).max_tokens).toBe(100);
  });

  it('splices into string bodies and bodies with leading whitespace', () => {
    expect(spliceIntoJsonObject(' {"model":"x"}')).toBe(
      ' {"stream_options":{"include_usage":true},"model":"x"}',
    );
    expect(decoder.decode(spliceIntoJsonObject(toBytes('\n{"a":1}')) as Uint8Array)).toBe(
      '\n{"stream_options":{"include_usage":true},"a":1}',
    );
  });
});

describe('DeepSeek (openai-compatible)', () => {
  const deepseek = createOpenAIFamilyAdapter(DEEPSEEK_CONFIG);
  const deepseekChannel: ChannelRuntime = { type: 43, key: 'sk-ds', organization: 'ignored' };

  it('uses its base URL and paths, no organization header', () => {
    const chat = deepseek.buildRequest(call({ model: 'deepseek-chat', messages }), deepseekChannel);
    expect(chat.url).toBe('https://api.deepseek.com/v1/chat/completions');
    expect(chat.headers).toEqual({ 'content-type': 'application/json', authorization: 'Bearer sk-ds' });
    const completion = deepseek.buildRequest(
      { ...call({ model: 'deepseek-chat', messages }), protocol: 'openai-completions' },
      deepseekChannel,
    );
    expect(completion.url).toBe('https://api.deepseek.com/beta/completions');
    expect(deepseek.nativeProtocols).toEqual(['openai-chat', 'openai-completions']);
  });

  it('forces stream usage but does not apply OpenAI reasoning rules', () => {
    const request = deepseek.buildRequest(
      call({ model: 'deepseek-reasoner', stream: true, messages, max_tokens: 5 }),
      deepseekChannel,
    );
    expect(request.streamUsageForced).toBe(true);
    expect(bodyOf(request).max_tokens).toBe(5);
  });

  it('drops and renames configured parameters with warnings', () => {
    const adapter = createOpenAIFamilyAdapter({
      ...DEEPSEEK_CONFIG,
      streamOptions: 'strip',
      dropParameters: ['logit_bias'],
      renameParameters: { max_completion_tokens: 'max_tokens' },
    });
    const request = adapter.buildRequest(
      call({
        model: 'deepseek-chat',
        stream: true,
        stream_options: { include_usage: true },
        messages,
        logit_bias: {},
        max_completion_tokens: 9,
      }),
      deepseekChannel,
    );
    expect(bodyOf(request)).toEqual({ model: 'deepseek-chat', stream: true, messages, max_tokens: 9 });
    expect(request.warnings).toEqual([
      'parameter "logit_bias" is not supported by deepseek and was removed',
      'parameter "max_completion_tokens" was sent as "max_tokens" to deepseek',
    ]);
  });
});

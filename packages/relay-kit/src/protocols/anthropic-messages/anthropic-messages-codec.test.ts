import { describe, expect, it } from 'vitest';
import { isRelayRequestError } from '../../spec/request-error.js';
import { createUsage } from '../../spec/usage.js';
import { anthropicMessagesCodec, parseAnthropicMessagesRequest } from './anthropic-messages-codec.js';

const valid = { model: 'claude-sonnet-4', max_tokens: 100, messages: [{ role: 'user', content: 'Hello' }] };
const parse = (json: unknown, headers?: Record<string, string>) =>
  parseAnthropicMessagesRequest({ json, headers });
const rejects = (json: unknown) => {
  try {
    parse(json);
  } catch (error) {
    if (isRelayRequestError(error)) return `${error.param}: ${error.message}`;
    throw error;
  }
  throw new Error('accepted');
};

describe('anthropicMessagesCodec.parseRequest', () => {
  it('parses a request with prompt input and forwarded headers', () => {
    const raw = JSON.stringify({
      ...valid,
      stream: true,
      system: [{ type: 'text', text: 'Be nice.' }],
      tools: [{ name: 'get_weather', description: 'Weather', input_schema: { type: 'object' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAA' } },
          ],
        },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 't1', name: 'get_weather', input: { q: 1 } }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 't1', content: [{ type: 'text', text: 'sunny' }] }],
        },
      ],
    });
    const call = anthropicMessagesCodec.parseRequest({
      rawBody: raw,
      path: '/v1/messages',
      headers: { 'anthropic-version': '2023-06-01', 'anthropic-beta': ['a', 'b'], 'x-api-key': 'secret' },
    });
    expect(call).toMatchObject({
      protocol: 'anthropic-messages',
      model: 'claude-sonnet-4',
      stream: true,
      includeUsage: false,
      maxTokens: 100,
      rawBody: raw,
    });
    expect(call.headers).toEqual({ 'anthropic-version': '2023-06-01', 'anthropic-beta': 'a,b' });
    expect(call.prompt).toEqual({
      messages: [
        { role: 'system', content: [{ type: 'text', text: 'Be nice.' }] },
        { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'get_weather' },
            { type: 'text', text: '{"q":1}' },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'sunny' }] },
      ],
      tools: [{ name: 'get_weather', description: 'Weather', parameters: { type: 'object' } }],
    });
  });

  it('rejects bad bodies with messages that name the field', () => {
    expect(rejects({ ...valid, model: 3 })).toBe('model: "model" must be a string, got the number 3');
    expect(rejects({ ...valid, messages: [] })).toBe(
      'messages: "messages" must contain at least one message',
    );
    expect(rejects({ ...valid, messages: [{ role: 'tool', content: 'x' }] })).toBe(
      'messages[0].role: messages[0].role must be "user", "assistant" or "system", got "tool"',
    );
    expect(rejects({ ...valid, messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] })).toBe(
      'messages[0].content[0].text: messages[0].content[0].text must be a string, got the number 5',
    );
    expect(rejects({ ...valid, max_tokens: 0 })).toBe(
      'max_tokens: "max_tokens" must be a positive integer, got the number 0',
    );
    expect(rejects({ ...valid, max_tokens: '10' })).toMatch(/^max_tokens: .* got a string$/);
    expect(rejects({ ...valid, stream: 'yes' })).toBe('stream: "stream" must be a boolean, got a string');
    expect(rejects({ ...valid, system: [{ type: 'image' }] })).toBe(
      'system[0]: system[0] must be a text block',
    );
    expect(rejects({ ...valid, temperature: '1' })).toBe(
      'temperature: "temperature" must be a number, got a string',
    );
    expect(rejects({ ...valid, stop_sequences: ['a', 1] })).toBe(
      'stop_sequences[1]: stop_sequences[1] must be a string, got the number 1',
    );
    expect(rejects({ ...valid, tools: [{ name: 'x' }] })).toBe(
      'tools[0].input_schema: tools[0].input_schema must be an object',
    );
    expect(rejects({ ...valid, tool_choice: { type: 'required' } })).toMatch(/^tool_choice.type: /);
    expect(rejects({ ...valid, tool_choice: { type: 'tool' } })).toBe(
      'tool_choice.name: tool_choice.name must be a string, got undefined',
    );
    expect(() => anthropicMessagesCodec.parseRequest({ rawBody: '{bad' })).toThrow(/not valid JSON/);
  });

  it('accepts server tools and a missing max_tokens', () => {
    const call = parse({
      model: 'c',
      messages: [{ role: 'user', content: 'x' }],
      tools: [{ type: 'web_search_20250305', name: 'web_search' }],
    });
    expect(call.maxTokens).toBeUndefined();
  });
});

describe('anthropicMessagesCodec errors', () => {
  it.each([
    [400, 'invalid_request_error'],
    [401, 'authentication_error'],
    [403, 'permission_error'],
    [404, 'not_found_error'],
    [413, 'request_too_large'],
    [429, 'rate_limit_error'],
    [500, 'api_error'],
    [503, 'api_error'],
    [529, 'overloaded_error'],
  ])('status %i → %s', (status, type) => {
    expect(JSON.parse(anthropicMessagesCodec.formatError({ status, message: 'm' }))).toEqual({
      type: 'error',
      error: { type, message: 'm' },
    });
  });

  it('keeps an Anthropic type and writes the stream error event', () => {
    expect(
      anthropicMessagesCodec.formatError({ status: 500, message: 'x', type: 'overloaded_error' }),
    ).toContain('"overloaded_error"');
    expect(
      anthropicMessagesCodec.formatError({ status: 400, message: 'x', type: 'new_api_error' }),
    ).toContain('"invalid_request_error"');
    expect(anthropicMessagesCodec.formatStreamError({ status: 429, message: 'slow down' })).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"slow down"}}\n\n',
    );
  });
});

describe('anthropicMessagesCodec.toClientResponse', () => {
  it('writes thinking, text and tool_use blocks with the usage split', () => {
    const call = parse(valid);
    const body = JSON.parse(
      anthropicMessagesCodec.toClientResponse(
        {
          id: 'chatcmpl-1',
          model: 'gpt-4o',
          created: 1,
          raw: {},
          usage: createUsage({ inputTotal: 100, cacheRead: 40, outputTotal: 20 }),
          choices: [
            {
              index: 0,
              text: 'Checking.',
              reasoning: 'hmm',
              toolCalls: [
                { id: 'call_1', name: 'a', arguments: '{"x":1}' },
                { id: '', name: 'b', arguments: '{broken' },
              ],
              finishReason: 'tool-calls',
              rawFinishReason: 'tool_calls',
            },
          ],
        },
        call,
      ),
    );
    expect(body.id).toMatch(/^msg_/);
    expect(body).toMatchObject({
      type: 'message',
      role: 'assistant',
      model: 'gpt-4o',
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: {
        input_tokens: 60,
        cache_read_input_tokens: 40,
        cache_creation_input_tokens: 0,
        output_tokens: 20,
      },
    });
    expect(body.content).toEqual([
      { type: 'thinking', thinking: 'hmm', signature: '' },
      { type: 'text', text: 'Checking.' },
      { type: 'tool_use', id: 'call_1', name: 'a', input: { x: 1 } },
      { type: 'tool_use', id: expect.stringMatching(/^toolu_/), name: 'b', input: {} },
    ]);
  });

  it('maps finish reasons', () => {
    const call = parse(valid);
    const reason = (finishReason: 'stop' | 'length' | 'content-filter', raw?: string) =>
      JSON.parse(
        anthropicMessagesCodec.toClientResponse(
          {
            id: '',
            model: '',
            created: 0,
            raw: {},
            choices: [{ index: 0, text: '', toolCalls: [], finishReason, rawFinishReason: raw }],
          },
          call,
        ),
      ).stop_reason;
    expect([
      reason('stop', 'stop'),
      reason('length', 'length'),
      reason('content-filter'),
      reason('stop', 'stop_sequence'),
    ]).toEqual(['end_turn', 'max_tokens', 'refusal', 'stop_sequence']);
  });
});

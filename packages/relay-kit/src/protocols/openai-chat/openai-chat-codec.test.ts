import { describe, expect, it } from 'vitest';
import { openAIAdapter } from '../../providers/openai/openai-adapter.js';
import { isRelayRequestError, type RelayRequestError } from '../../spec/request-error.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { createUsage } from '../../spec/usage.js';
import { createSseParserStream, parseSseText } from '../../sse/sse-parser.js';
import { collectText, loadChunksFixture, streamOf, toBytes } from '../../testing/sse-fixtures.js';
import { openAIChatCodec } from './openai-chat-codec.js';

function parseError(body: unknown): RelayRequestError {
  try {
    openAIChatCodec.parseRequest(typeof body === 'string' ? { rawBody: body } : { json: body });
  } catch (error) {
    if (isRelayRequestError(error)) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

const messages = [{ role: 'user', content: 'hi' }];

describe('openAIChatCodec.parseRequest', () => {
  it('normalises a request and keeps body and bytes', () => {
    const raw = toBytes(
      JSON.stringify({
        model: 'gpt-4o',
        messages,
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: 50,
        max_completion_tokens: 80,
        extra: [1],
      }),
    );
    const call = openAIChatCodec.parseRequest({ rawBody: raw, path: '/v1/chat/completions' });
    expect(call).toMatchObject({
      protocol: 'openai-chat',
      model: 'gpt-4o',
      upstreamModel: 'gpt-4o',
      stream: true,
      includeUsage: true,
      maxTokens: 80,
      path: '/v1/chat/completions',
    });
    expect(call.rawBody).toBe(raw);
    expect(call.body.extra).toEqual([1]);
    expect(call.prompt.messages).toEqual([{ role: 'user', name: undefined, content: 'hi' }]);
  });

  it('ignores include_usage on non-stream calls and treats 0 tokens as unset', () => {
    const call = openAIChatCodec.parseRequest({
      json: { model: 'm', messages, stream_options: { include_usage: true }, max_tokens: 0 },
    });
    expect(call.includeUsage).toBe(false);
    expect(call.stream).toBe(false);
    expect(call.maxTokens).toBeUndefined();
  });

  it.each([
    ['', 'request:invalid_json', undefined, 'request body is empty'],
    ['{"model":', 'request:invalid_json', undefined, 'request body is not valid JSON'],
    ['[1,2]', 'request:invalid_body', undefined, 'request body must be a JSON object'],
    [{ messages }, 'request:invalid_body', 'model', '"model" is required'],
    [{ model: 42, messages }, 'request:invalid_body', 'model', '"model" must be a string, got the number 42'],
    [{ model: ' ', messages }, 'request:invalid_body', 'model', '"model" must not be empty'],
    [{ model: 'm' }, 'request:invalid_body', 'messages', '"messages" is required'],
    [
      { model: 'm', messages: 'hi' },
      'request:invalid_body',
      'messages',
      '"messages" must be an array, got a string',
    ],
    [
      { model: 'm', messages: [] },
      'request:invalid_body',
      'messages',
      '"messages" must contain at least one message',
    ],
    [
      { model: 'm', messages: ['hi'] },
      'request:invalid_body',
      'messages[0]',
      'messages[0] must be an object, got a string',
    ],
    [
      { model: 'm', messages: [...messages, { content: 'x' }] },
      'request:invalid_body',
      'messages[1].role',
      'messages[1].role must be a non-empty string',
    ],
    [
      { model: 'm', messages: [{ role: 'user', content: 5 }] },
      'request:invalid_body',
      'messages[0].content',
      'messages[0].content must be a string or an array of content parts, got the number 5',
    ],
    [
      { model: 'm', messages, stream: 'yes' },
      'request:invalid_body',
      'stream',
      '"stream" must be a boolean, got a string',
    ],
    [
      { model: 'm', messages, stream_options: true },
      'request:invalid_body',
      'stream_options',
      '"stream_options" must be an object, got true',
    ],
    [
      { model: 'm', messages, max_tokens: 1.5 },
      'request:invalid_body',
      'max_tokens',
      '"max_tokens" must be a non-negative integer, got the number 1.5',
    ],
    [
      { model: 'm', messages, max_tokens: -1 },
      'request:invalid_body',
      'max_tokens',
      '"max_tokens" must be a non-negative integer, got the number -1',
    ],
    [
      { model: 'm', messages, max_completion_tokens: 2 ** 31 },
      'request:invalid_body',
      'max_completion_tokens',
      '"max_completion_tokens" must not exceed 1073741823',
    ],
    [
      { model: 'm', messages, tools: {} },
      'request:invalid_body',
      'tools',
      '"tools" must be an array, got an object',
    ],
  ] as const)('rejects %j', (body, code, param, message) => {
    const error = parseError(body);
    expect(error.code).toBe(code);
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message.startsWith(message)).toBe(true);
  });

  it('extracts the prompt input: parts, names, tool calls and all tools', () => {
    const call = openAIChatCodec.parseRequest({
      json: {
        model: 'gpt-4o',
        messages: [
          { role: 'system', content: 'be brief', name: 'rules' },
          {
            role: 'user',
            content: [
              { type: 'text', text: 'what is this?' },
              { type: 'image_url', image_url: { url: 'https://example.com/a.png', detail: 'low' } },
              { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
              { type: 'file', file: { file_id: 'file-1' } },
            ],
          },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'look', arguments: '{"q":1}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'result' },
        ],
        tools: [
          {
            type: 'function',
            function: { name: 'look', description: 'Looks', parameters: { type: 'object' } },
          },
          { type: 'function', function: { name: 'other' } },
        ],
      },
    });
    expect(call.prompt).toMatchInlineSnapshot(`
      {
        "messages": [
          {
            "content": "be brief",
            "name": "rules",
            "role": "system",
          },
          {
            "content": [
              {
                "text": "what is this?",
                "type": "text",
              },
              {
                "detail": "low",
                "type": "image",
              },
              {
                "type": "audio",
              },
              {
                "type": "file",
              },
            ],
            "name": undefined,
            "role": "user",
          },
          {
            "content": [
              {
                "text": "look",
                "type": "text",
              },
              {
                "text": "{"q":1}",
                "type": "text",
              },
            ],
            "name": undefined,
            "role": "assistant",
          },
          {
            "content": "result",
            "name": undefined,
            "role": "tool",
          },
        ],
        "tools": [
          {
            "description": "Looks",
            "name": "look",
            "parameters": {
              "type": "object",
            },
          },
          {
            "description": undefined,
            "name": "other",
            "parameters": undefined,
          },
        ],
      }
    `);
  });
});

describe('openAIChatCodec errors and usage chunk', () => {
  it('formats the OpenAI error body', () => {
    expect(
      JSON.parse(
        openAIChatCodec.formatError({ status: 400, message: '"model" is required', param: 'model' }),
      ),
    ).toEqual({
      error: { message: '"model" is required', type: 'invalid_request_error', param: 'model', code: null },
    });
    expect(
      JSON.parse(
        openAIChatCodec.formatError({
          status: 502,
          message: 'x',
          type: 'upstream_error',
          code: 'bad_response_status_code',
        }),
      ),
    ).toEqual({
      error: { message: 'x', type: 'upstream_error', param: null, code: 'bad_response_status_code' },
    });
    expect(openAIChatCodec.formatStreamError({ status: 500, message: 'boom' })).toBe(
      'data: {"error":{"message":"boom","type":"server_error","param":null,"code":null}}\n\n',
    );
  });

  it('builds the synthetic final usage chunk', () => {
    const usage = createUsage({ inputTotal: 100, cacheRead: 40, outputTotal: 20, reasoning: 5 });
    const event = openAIChatCodec.formatUsageEvent(usage, {
      id: 'chatcmpl-1',
      model: 'gpt-4o',
      created: 1700000000,
    });
    expect(parseSseText(event).map((item) => JSON.parse(item.data))).toEqual([
      {
        id: 'chatcmpl-1',
        object: 'chat.completion.chunk',
        created: 1700000000,
        model: 'gpt-4o',
        choices: [],
        usage: {
          prompt_tokens: 100,
          completion_tokens: 20,
          total_tokens: 120,
          prompt_tokens_details: { cached_tokens: 40, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 5, audio_tokens: 0 },
        },
      },
    ]);
  });
});

describe('openAIChatCodec.toClientStream', () => {
  const call = openAIChatCodec.parseRequest({
    json: { model: 'gpt-4o', stream: true, stream_options: { include_usage: true }, messages },
  });

  it('round-trips an OpenAI stream through stream parts', async () => {
    const sse = loadChunksFixture(
      new URL(
        '../../providers/openai/__fixtures__/openai-chat-tool-calls-stream.chunks.txt',
        import.meta.url,
      ),
    );
    const output = await collectText(
      streamOf([toBytes(sse)])
        .pipeThrough(createSseParserStream())
        .pipeThrough(openAIAdapter.toStreamParts(call))
        .pipeThrough(openAIChatCodec.toClientStream(call)),
    );
    const events = parseSseText(output).map((event) => event.data);
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((data) => JSON.parse(data));
    expect(chunks[0].choices[0].delta).toEqual({
      role: 'assistant',
      tool_calls: [
        { index: 0, id: 'call_8Yq2', type: 'function', function: { arguments: '', name: 'get_weather' } },
      ],
    });
    expect(
      chunks.every((chunk) => chunk.id === 'chatcmpl-C3xMtool' && chunk.model === 'gpt-4o-2024-08-06'),
    ).toBe(true);
    expect(chunks.at(-2).choices[0].finish_reason).toBe('tool_calls');
    expect(chunks.at(-1).usage.total_tokens).toBe(129);
  });

  it('asks the server for usage when the upstream sent none, and ends with an error event on failure', async () => {
    const parts: StreamPart[] = [
      { type: 'text-delta', index: 0, delta: 'Hi' },
      { type: 'finish', index: 0, reason: 'length' },
    ];
    const output = await collectText(
      streamOf(parts).pipeThrough(
        openAIChatCodec.toClientStream(call, {
          resolveUsage: (usage) => usage ?? createUsage({ inputTotal: 1, outputTotal: 1 }),
        }),
      ),
    );
    const events = parseSseText(output).map((event) => event.data);
    expect(events).toHaveLength(4);
    expect(JSON.parse(events[1]!).choices[0].finish_reason).toBe('length');
    expect(JSON.parse(events[2]!).usage.total_tokens).toBe(2);

    const failing = await collectText(
      streamOf<StreamPart>([
        { type: 'text-delta', index: 0, delta: 'Hi' },
        {
          type: 'error',
          error: new UpstreamError({
            status: 200,
            code: 'upstream:stream_error',
            message: 'cut',
            retryable: false,
            channelFault: false,
          }),
        },
        { type: 'text-delta', index: 0, delta: 'ignored' },
      ]).pipeThrough(openAIChatCodec.toClientStream(call)),
    );
    const failingEvents = parseSseText(failing).map((event) => event.data);
    expect(failingEvents).toHaveLength(2);
    expect(JSON.parse(failingEvents[1]!).error.message).toBe('cut');
  });

  it('writes a converted non-stream response', () => {
    const body = JSON.parse(
      openAIChatCodec.toClientResponse(
        {
          id: 'r1',
          model: 'claude-x',
          created: 1,
          choices: [{ index: 0, text: 'ok', toolCalls: [], finishReason: 'length' }],
          usage: createUsage({ inputTotal: 3, outputTotal: 2 }),
          raw: {},
        },
        call,
      ),
    );
    expect(body).toMatchObject({
      id: 'r1',
      object: 'chat.completion',
      model: 'claude-x',
      choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'length' }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
  });
});

import { describe, expect, it } from 'vitest';
import { openAIAdapter } from '../../providers/openai/openai-adapter.js';
import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import { isRelayRequestError, type RelayRequestError } from '../../spec/request-error.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { UpstreamError } from '../../spec/upstream-error.js';
import { createUsage } from '../../spec/usage.js';
import { createSseParserStream, parseSseText } from '../../sse/sse-parser.js';
import { chunksToSse, collectText, streamOf, toBytes } from '../../testing/sse-fixtures.js';
import { estimatePromptTokens } from '../../tokens/estimate-prompt-tokens.js';
import { openAICompletionsCodec, parseOpenAICompletionsRequest } from './openai-completions-codec.js';

function parseError(body: unknown): RelayRequestError {
  try {
    openAICompletionsCodec.parseRequest(typeof body === 'string' ? { rawBody: body } : { json: body });
  } catch (error) {
    if (isRelayRequestError(error)) return error;
    throw error;
  }
  throw new Error('expected a validation error');
}

const channel: ChannelRuntime = { type: 1, key: 'sk-test-key' };

describe('openAICompletionsCodec.parseRequest', () => {
  it('normalises a request and keeps body and bytes', () => {
    const raw = toBytes(
      JSON.stringify({
        model: 'gpt-3.5-turbo-instruct',
        prompt: 'Say this is a test',
        stream: true,
        stream_options: { include_usage: true },
        max_tokens: 7,
        logprobs: 2,
      }),
    );
    const call = openAICompletionsCodec.parseRequest({ rawBody: raw, path: '/v1/completions' });
    expect(call).toMatchObject({
      protocol: 'openai-completions',
      model: 'gpt-3.5-turbo-instruct',
      upstreamModel: 'gpt-3.5-turbo-instruct',
      stream: true,
      includeUsage: true,
      maxTokens: 7,
      path: '/v1/completions',
    });
    expect(call.rawBody).toBe(raw);
    expect(call.body.logprobs).toBe(2);
  });

  it('ignores include_usage on non-stream calls and treats 0 tokens as unset', () => {
    const call = openAICompletionsCodec.parseRequest({
      json: { model: 'm', prompt: 'x', stream_options: { include_usage: true }, max_tokens: 0 },
    });
    expect(call).toMatchObject({ stream: false, includeUsage: false, maxTokens: undefined });
  });

  it.each([
    ['', 'request:invalid_json', undefined, 'request body is empty'],
    ['{"model":', 'request:invalid_json', undefined, 'request body is not valid JSON'],
    ['"text"', 'request:invalid_body', undefined, 'request body must be a JSON object'],
    [{ prompt: 'x' }, 'request:invalid_body', 'model', '"model" is required'],
    [{ model: null, prompt: 'x' }, 'request:invalid_body', 'model', '"model" is required'],
    [
      { model: ['m'], prompt: 'x' },
      'request:invalid_body',
      'model',
      '"model" must be a string, got an array',
    ],
    [{ model: '', prompt: 'x' }, 'request:invalid_body', 'model', '"model" must not be empty'],
    [{ model: 'm' }, 'request:invalid_body', 'prompt', '"prompt" is required'],
    [
      { model: 'm', prompt: 5 },
      'request:invalid_body',
      'prompt',
      '"prompt" must be a string, an array of strings, an array of token ids or an array of token id arrays, got the number 5',
    ],
    [{ model: 'm', prompt: [] }, 'request:invalid_body', 'prompt', '"prompt" must not be an empty array'],
    [
      { model: 'm', prompt: ['a', 'b', 3] },
      'request:invalid_body',
      'prompt[2]',
      'prompt[2] must be a string, got the number 3',
    ],
    [
      { model: 'm', prompt: [1, 2, 'x'] },
      'request:invalid_body',
      'prompt[2]',
      'prompt[2] must be a token id (a non-negative integer), got a string',
    ],
    [
      { model: 'm', prompt: [1, -2] },
      'request:invalid_body',
      'prompt[1]',
      'prompt[1] must be a token id (a non-negative integer), got the number -2',
    ],
    [
      { model: 'm', prompt: [[1], 'x'] },
      'request:invalid_body',
      'prompt[1]',
      'prompt[1] must be an array of token ids, got a string',
    ],
    [
      { model: 'm', prompt: [[1], [2, 3.5]] },
      'request:invalid_body',
      'prompt[1][1]',
      'prompt[1][1] must be a token id (a non-negative integer), got the number 3.5',
    ],
    [
      { model: 'm', prompt: [{ text: 'x' }] },
      'request:invalid_body',
      'prompt[0]',
      'prompt[0] must be a string, a token id or an array of token ids, got an object',
    ],
    [
      { model: 'm', prompt: 'x', stream: 1 },
      'request:invalid_body',
      'stream',
      '"stream" must be a boolean, got the number 1',
    ],
    [
      { model: 'm', prompt: 'x', stream_options: [] },
      'request:invalid_body',
      'stream_options',
      '"stream_options" must be an object, got an array',
    ],
    [
      { model: 'm', prompt: 'x', stream: true, stream_options: { include_usage: 'yes' } },
      'request:invalid_body',
      'stream_options.include_usage',
      '"stream_options.include_usage" must be a boolean, got a string',
    ],
    [
      { model: 'm', prompt: 'x', max_tokens: '16' },
      'request:invalid_body',
      'max_tokens',
      '"max_tokens" must be a non-negative integer, got a string',
    ],
    [
      { model: 'm', prompt: 'x', max_tokens: 2 ** 31 },
      'request:invalid_body',
      'max_tokens',
      '"max_tokens" must not exceed 1073741823',
    ],
  ] as const)('rejects %j', (body, code, param, message) => {
    const error = parseError(body);
    expect(error.code).toBe(code);
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message.startsWith(message)).toBe(true);
  });
});

describe('openAICompletionsCodec prompt input', () => {
  const promptOf = (body: Record<string, unknown>) =>
    parseOpenAICompletionsRequest({ json: { model: 'gpt-3.5-turbo-instruct', ...body } }).prompt;

  it('collects texts by reference and counts token arrays by length', () => {
    const batch = ['first', 'second'];
    expect(promptOf({ prompt: batch }).texts).toBe(batch);
    expect(promptOf({ prompt: 'one' })).toEqual({ texts: ['one'] });
    expect(promptOf({ prompt: '' })).toEqual({ texts: [''] });
    expect(promptOf({ prompt: [1212, 318, 257, 1332] })).toEqual({ texts: [], tokenCount: 4 });
    expect(promptOf({ prompt: [[1212, 318], [257], []] })).toEqual({ texts: [], tokenCount: 3 });
  });

  it('adds a fill-in-the-middle suffix to the texts', () => {
    expect(promptOf({ prompt: 'def f(', suffix: '    return x' })).toEqual({
      texts: ['def f(', '    return x'],
    });
    expect(promptOf({ prompt: [1, 2], suffix: 'end' })).toEqual({ texts: ['end'], tokenCount: 2 });
    expect(promptOf({ prompt: 'a', suffix: null })).toEqual({ texts: ['a'] });
  });

  it('estimates plain texts without message overhead', () => {
    const prompt = promptOf({ prompt: ['hello world', 'hello world'] });
    const single = estimatePromptTokens({ texts: ['hello world'] }, 'gpt-3.5-turbo-instruct').tokens;
    expect(single).toBeGreaterThan(0);
    expect(estimatePromptTokens(prompt, 'gpt-3.5-turbo-instruct').tokens).toBe(2 * single);
  });
});

describe('openAICompletionsCodec errors and usage chunk', () => {
  it('formats the OpenAI error body', () => {
    expect(
      JSON.parse(
        openAICompletionsCodec.formatError({ status: 400, message: '"prompt" is required', param: 'prompt' }),
      ),
    ).toEqual({
      error: { message: '"prompt" is required', type: 'invalid_request_error', param: 'prompt', code: null },
    });
    expect(openAICompletionsCodec.formatStreamError({ status: 502, message: 'boom', code: 'x' })).toBe(
      'data: {"error":{"message":"boom","type":"server_error","param":null,"code":"x"}}\n\n',
    );
  });

  it('builds the synthetic final usage chunk as a text_completion', () => {
    const usage = createUsage({ inputTotal: 5, outputTotal: 7 });
    const event = openAICompletionsCodec.formatUsageEvent(usage, {
      id: 'cmpl-1',
      model: 'gpt-3.5-turbo-instruct',
      created: 1700000000,
    });
    expect(event.endsWith('\n\n')).toBe(true);
    expect(parseSseText(event).map((item) => JSON.parse(item.data))).toEqual([
      {
        id: 'cmpl-1',
        object: 'text_completion',
        created: 1700000000,
        model: 'gpt-3.5-turbo-instruct',
        choices: [],
        usage: {
          prompt_tokens: 5,
          completion_tokens: 7,
          total_tokens: 12,
          prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0 },
        },
      },
    ]);
    expect(openAICompletionsCodec.streamEndMarker).toBe('data: [DONE]\n\n');
  });
});

describe('openAICompletionsCodec.toClientStream', () => {
  const call = parseOpenAICompletionsRequest({
    json: {
      model: 'gpt-3.5-turbo-instruct',
      prompt: 'Say',
      stream: true,
      stream_options: { include_usage: true },
    },
  });
  // Synthetic upstream events in the /v1/completions stream shape.
  const upstream = chunksToSse(
    [
      '{"id":"cmpl-9","object":"text_completion","created":1700000001,"choices":[{"text":"This","index":0,"logprobs":null,"finish_reason":null}],"model":"gpt-3.5-turbo-instruct"}',
      '{"id":"cmpl-9","object":"text_completion","created":1700000001,"choices":[{"text":" is","index":0,"logprobs":null,"finish_reason":null}],"model":"gpt-3.5-turbo-instruct"}',
      '{"id":"cmpl-9","object":"text_completion","created":1700000001,"choices":[{"text":"","index":0,"logprobs":null,"finish_reason":"length"}],"model":"gpt-3.5-turbo-instruct"}',
      '{"id":"cmpl-9","object":"text_completion","created":1700000001,"model":"gpt-3.5-turbo-instruct","choices":[],"usage":{"prompt_tokens":2,"completion_tokens":2,"total_tokens":4}}',
      '[DONE]',
    ].join('\n'),
  );

  it('round-trips a completions stream through stream parts', async () => {
    const output = await collectText(
      streamOf([toBytes(upstream)])
        .pipeThrough(createSseParserStream())
        .pipeThrough(openAIAdapter.toStreamParts(call))
        .pipeThrough(openAICompletionsCodec.toClientStream(call)),
    );
    const events = parseSseText(output).map((event) => event.data);
    expect(events.at(-1)).toBe('[DONE]');
    const chunks = events.slice(0, -1).map((data) => JSON.parse(data));
    expect(chunks.map((chunk) => chunk.choices)).toEqual([
      [{ text: 'This', index: 0, logprobs: null, finish_reason: null }],
      [{ text: ' is', index: 0, logprobs: null, finish_reason: null }],
      [{ text: '', index: 0, logprobs: null, finish_reason: 'length' }],
      [],
    ]);
    expect(
      chunks.every(
        (chunk) =>
          chunk.id === 'cmpl-9' &&
          chunk.object === 'text_completion' &&
          chunk.created === 1700000001 &&
          chunk.model === 'gpt-3.5-turbo-instruct',
      ),
    ).toBe(true);
    expect(chunks.at(-1).usage).toMatchObject({ prompt_tokens: 2, completion_tokens: 2, total_tokens: 4 });
  });

  it('skips reasoning and tool calls, resolves usage, and ends with an error event on failure', async () => {
    const parts: StreamPart[] = [
      { type: 'reasoning-delta', index: 0, delta: 'thinking' },
      { type: 'text-delta', index: 0, delta: 'Hi' },
      { type: 'tool-call-delta', index: 0, toolCallIndex: 0, name: 'f', argumentsDelta: '{}' },
      { type: 'finish', index: 0, reason: 'tool-calls' },
    ];
    const output = await collectText(
      streamOf(parts).pipeThrough(
        openAICompletionsCodec.toClientStream(call, {
          resolveUsage: (usage) => usage ?? createUsage({ inputTotal: 1, outputTotal: 1 }),
        }),
      ),
    );
    const events = parseSseText(output).map((event) => event.data);
    expect(events).toHaveLength(4);
    const [text, finish, usage] = events.slice(0, 3).map((data) => JSON.parse(data));
    expect(text.choices[0].text).toBe('Hi');
    expect(text.id).toMatch(/^cmpl-/);
    expect(finish.choices[0].finish_reason).toBe('stop');
    expect(usage.usage.total_tokens).toBe(2);

    const withoutUsage = parseOpenAICompletionsRequest({ json: { model: 'm', prompt: 'x', stream: true } });
    const quiet = await collectText(
      streamOf<StreamPart>([{ type: 'usage', usage: createUsage({ inputTotal: 1 }) }]).pipeThrough(
        openAICompletionsCodec.toClientStream(withoutUsage),
      ),
    );
    expect(quiet).toBe('data: [DONE]\n\n');

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
      ]).pipeThrough(openAICompletionsCodec.toClientStream(call)),
    );
    const failingEvents = parseSseText(failing).map((event) => event.data);
    expect(failingEvents).toHaveLength(2);
    expect(JSON.parse(failingEvents[1]!).error).toEqual({
      message: 'cut',
      type: 'upstream_error',
      param: null,
      code: null,
    });
  });

  it('writes a converted non-stream response', () => {
    const body = JSON.parse(
      openAICompletionsCodec.toClientResponse(
        {
          id: 'msg_1',
          model: 'claude-x',
          created: 1,
          choices: [
            { index: 0, text: 'ok', reasoning: 'hidden', toolCalls: [], finishReason: 'content-filter' },
          ],
          usage: createUsage({ inputTotal: 3, outputTotal: 2 }),
          raw: {},
        },
        call,
      ),
    );
    expect(body).toMatchObject({
      id: 'msg_1',
      object: 'text_completion',
      created: 1,
      model: 'claude-x',
      choices: [{ text: 'ok', index: 0, logprobs: null, finish_reason: 'content_filter' }],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    const fallback = JSON.parse(
      openAICompletionsCodec.toClientResponse({ id: '', model: '', created: 2, choices: [], raw: {} }, call),
    );
    expect(fallback.id).toMatch(/^cmpl-/);
    expect(fallback.model).toBe('gpt-3.5-turbo-instruct');
    expect(fallback.usage).toBeUndefined();
  });
});

describe('openAICompletionsCodec → openAIAdapter.buildRequest', () => {
  const decoder = new TextDecoder();

  it('forwards the client bytes unchanged to /v1/completions', () => {
    for (const body of [
      { model: 'gpt-3.5-turbo-instruct', prompt: ['a', 'b'], max_tokens: 5, echo: true },
      { model: 'davinci-002', prompt: [[1212, 318]], n: 2 },
      { model: 'gpt-3.5-turbo-instruct', prompt: 'x', stream: true, stream_options: { include_usage: true } },
    ]) {
      const raw = toBytes(JSON.stringify(body));
      const call = parseOpenAICompletionsRequest({ rawBody: raw, path: '/v1/completions' });
      const request = openAIAdapter.buildRequest(call, channel);
      expect(request.url).toBe('https://api.openai.com/v1/completions');
      expect(request.body).toBe(raw);
      expect(request.upstreamModel).toBe(body.model);
      expect(request.streamUsageForced).toBe(false);
      expect(request.warnings).toEqual([]);
    }
  });

  it('splices forced stream usage into a stream that did not ask for it', () => {
    const text = '{"model":"gpt-3.5-turbo-instruct","prompt":"x","stream":true}';
    const call = parseOpenAICompletionsRequest({ rawBody: toBytes(text) });
    const request = openAIAdapter.buildRequest(call, channel);
    expect(request.streamUsageForced).toBe(true);
    expect(decoder.decode(request.body as Uint8Array)).toBe(
      '{"stream_options":{"include_usage":true},"model":"gpt-3.5-turbo-instruct","prompt":"x","stream":true}',
    );
  });

  it('rewrites only the model when the channel maps it', () => {
    const call = parseOpenAICompletionsRequest({ rawBody: '{"model":"fim","prompt":"x","suffix":"y"}' });
    const request = openAIAdapter.buildRequest(call, { ...channel, modelMapping: { fim: 'davinci-002' } });
    expect(request.body).toBe('{"model":"davinci-002","prompt":"x","suffix":"y"}');
    expect(request.upstreamModel).toBe('davinci-002');
  });
});

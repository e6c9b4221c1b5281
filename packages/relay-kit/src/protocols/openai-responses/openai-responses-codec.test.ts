import { describe, expect, it } from 'vitest';
import { openAIAdapter } from '../../providers/openai/openai-adapter.js';
import { isRelayRequestError, type RelayRequestError } from '../../spec/request-error.js';
import { createUsage } from '../../spec/usage.js';
import { loadJsonFixture, toBytes } from '../../testing/sse-fixtures.js';
import { openAIResponsesCodec, parseOpenAIResponsesRequest } from './openai-responses-codec.js';

const fixture = (name: string) => new URL(`./__fixtures__/${name}`, import.meta.url);
const providerFixture = (name: string) =>
  new URL(`../../providers/openai/__fixtures__/${name}`, import.meta.url);

function caught(run: () => unknown): RelayRequestError {
  try {
    run();
  } catch (error) {
    if (isRelayRequestError(error)) return error;
    throw error;
  }
  throw new Error('expected a RelayRequestError');
}

const parse = (json: unknown) => parseOpenAIResponsesRequest({ json, path: '/v1/responses' });

describe('openAIResponsesCodec.parseRequest', () => {
  it('normalises a request and keeps the bytes', () => {
    const raw = toBytes('{"model":"gpt-4.1","input":"hi","stream":true,"max_output_tokens":64}');
    const call = openAIResponsesCodec.parseRequest({ rawBody: raw, path: '/v1/responses' });
    expect(call).toMatchObject({
      protocol: 'openai-responses',
      model: 'gpt-4.1',
      upstreamModel: 'gpt-4.1',
      stream: true,
      includeUsage: false,
      maxTokens: 64,
    });
    expect(call.rawBody).toBe(raw);
    expect(call.prompt).toEqual({ messages: [{ role: 'user', content: 'hi' }] });
  });

  it('collects the prompt input from instructions, items and tools', () => {
    const call = parse(loadJsonFixture(fixture('responses-request-tools.json')));
    expect(call.prompt.messages?.[0]).toEqual({ role: 'system', content: 'You are a weather bot.' });
    expect(call.prompt.messages?.[1]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'Weather in Paris?' },
        { type: 'image', detail: 'low' },
      ],
    });
    expect(call.prompt.tools?.map((tool) => tool.name)).toEqual(['get_weather']);
  });

  it.each([
    [{ input: 'x' }, 'model', '"model" is required'],
    [{ model: 'm', input: 5 }, 'input', '"input" must be a string or an array of items, got the number 5'],
    [{ model: 'm', input: ['x'] }, 'input[0]', 'input[0] must be an object, got a string'],
    [{ model: 'm', instructions: 1 }, 'instructions', '"instructions" must be a string'],
    [{ model: 'm', stream: 'yes' }, 'stream', '"stream" must be a boolean'],
    [
      { model: 'm', max_output_tokens: -1 },
      'max_output_tokens',
      '"max_output_tokens" must be a non-negative',
    ],
    [{ model: 'm', tools: {} }, 'tools', '"tools" must be an array'],
    [{ model: 'm', text: 'json' }, 'text', '"text" must be an object'],
  ])('rejects %j', (body, param, message) => {
    const error = caught(() => parse(body));
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message.startsWith(message)).toBe(true);
  });
});

describe('openAIResponsesCodec.toChatCall', () => {
  it('converts the golden request into the expected chat call', () => {
    const call = parse(loadJsonFixture(fixture('responses-request-tools.json')));
    const chat = openAIResponsesCodec.toChatCall!(call);
    expect(chat.body).toEqual(loadJsonFixture(fixture('responses-request-tools.chat.json')));
    expect(chat).toMatchObject({
      protocol: 'openai-chat',
      model: 'gpt-4.1',
      stream: true,
      includeUsage: true,
      maxTokens: 500,
      path: '/v1/chat/completions',
    });
    expect(chat.rawBody).toBeUndefined();
    // The OpenAI adapter then serves it as a chat call, with the client's usage request kept.
    const request = openAIAdapter.buildRequest(chat, { type: 1, key: 'sk-x' });
    expect(request.url).toBe('https://api.openai.com/v1/chat/completions');
    expect(request.streamUsageForced).toBe(false);
  });

  it('converts a plain string input and json_object format, without stream options', () => {
    const chat = openAIResponsesCodec.toChatCall!(
      parse({ model: 'm', input: 'hello', text: { format: { type: 'json_object' } } }),
    );
    expect(chat.body).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'hello' }],
      response_format: { type: 'json_object' },
    });
    expect(chat.stream).toBe(false);
  });

  it.each([
    [{ model: 'm', input: 'x', previous_response_id: 'resp_1' }, 'previous_response_id'],
    [{ model: 'm', input: 'x', tools: [{ type: 'file_search' }] }, 'tools[0]'],
    [
      { model: 'm', input: 'x', tools: [{ type: 'namespace', name: 'n', tools: [{ type: 'local_shell' }] }] },
      'tools[0].tools[0]',
    ],
    [{ model: 'm', input: [{ type: 'item_reference', id: 'msg_1' }] }, 'input[0]'],
    [
      { model: 'm', input: [{ role: 'user', content: [{ type: 'input_image', file_id: 'f' }] }] },
      'input[0].content[0]',
    ],
    [{ model: 'm' }, 'input'],
  ])('refuses what chat cannot express with a 400: %j', (body, param) => {
    const error = caught(() => openAIResponsesCodec.toChatCall!(parse(body)));
    expect(error.code).toBe('request:invalid_body');
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
  });

  it('flattens namespace tools, maps web_search and drops what chat has no place for', () => {
    const chat = openAIResponsesCodec.toChatCall!(
      parse({
        model: 'm',
        input: [
          { role: 'user', content: 'find it' },
          { type: 'web_search_call', id: 'ws_1', status: 'completed' },
        ],
        store: false,
        include: ['reasoning.encrypted_content'],
        prompt_cache_key: 'thread-1',
        reasoning: { effort: 'high', summary: 'auto' },
        tool_choice: { type: 'allowed_tools', mode: 'auto', tools: [] },
        tools: [
          {
            type: 'web_search',
            search_context_size: 'low',
            user_location: { type: 'approximate', city: 'Paris' },
          },
          {
            type: 'namespace',
            name: 'mcp__files',
            tools: [{ type: 'function', name: 'read_file', parameters: { type: 'object' } }],
          },
          { type: 'function', name: 'shell', parameters: { type: 'object' } },
        ],
      }),
    );
    expect(chat.body).toEqual({
      model: 'm',
      messages: [{ role: 'user', content: 'find it' }],
      prompt_cache_key: 'thread-1',
      reasoning_effort: 'high',
      tools: [
        { type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } },
        { type: 'function', function: { name: 'shell', parameters: { type: 'object' } } },
      ],
      web_search_options: {
        search_context_size: 'low',
        user_location: { type: 'approximate', approximate: { city: 'Paris' } },
      },
      tool_choice: 'auto',
    });
  });

  it('leaves out a tool choice of a built-in tool (the model chooses)', () => {
    const chat = openAIResponsesCodec.toChatCall!(
      parse({ model: 'm', input: 'x', tools: [{ type: 'web_search' }], tool_choice: { type: 'web_search' } }),
    );
    expect(chat.body.tool_choice).toBeUndefined();
    expect(chat.body.web_search_options).toEqual({});
  });
});

describe('openAIResponsesCodec.toClientResponse', () => {
  it('turns a chat completion with tool calls into a Responses body', () => {
    const call = parse({ model: 'gpt-4o', input: 'weather?', max_output_tokens: 100 });
    const unified = openAIAdapter.toResponse(loadJsonFixture(providerFixture('openai-chat.json')), call);
    const body = JSON.parse(openAIResponsesCodec.toClientResponse(unified, call));
    expect(body.id).toMatch(/^resp_[0-9a-f]{32}$/);
    expect(body).toMatchObject({
      object: 'response',
      created_at: 1754900060,
      status: 'completed',
      incomplete_details: null,
      model: 'gpt-4o-2024-08-06',
      max_output_tokens: 100,
      usage: {
        input_tokens: 82,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens: 17,
        output_tokens_details: { reasoning_tokens: 0 },
        total_tokens: 99,
      },
    });
    expect(body.output).toHaveLength(1);
    expect(body.output[0]).toMatchObject({
      type: 'function_call',
      status: 'completed',
      call_id: 'call_abc123',
      name: 'get_weather',
      arguments: '{"location":"Paris"}',
    });
    expect(body.output[0].id).toMatch(/^fc_/);
  });

  it('writes reasoning, text, cached and reasoning tokens, and incomplete status', () => {
    const call = parse({ model: 'o3', input: 'q' });
    const body = JSON.parse(
      openAIResponsesCodec.toClientResponse(
        {
          id: 'chatcmpl-1',
          model: 'o3',
          created: 1,
          raw: {},
          usage: createUsage({ inputTotal: 100, cacheRead: 30, outputTotal: 50, reasoning: 20 }),
          choices: [
            { index: 0, text: 'Answer', reasoning: 'Thinking', toolCalls: [], finishReason: 'length' },
          ],
        },
        call,
      ),
    );
    expect(body.status).toBe('incomplete');
    expect(body.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(body.output.map((item: { type: string }) => item.type)).toEqual(['reasoning', 'message']);
    expect(body.output[0].summary).toEqual([{ type: 'summary_text', text: 'Thinking' }]);
    expect(body.output[1].content).toEqual([
      { type: 'output_text', annotations: [], logprobs: [], text: 'Answer' },
    ]);
    expect(body.usage).toEqual({
      input_tokens: 100,
      input_tokens_details: { cached_tokens: 30 },
      output_tokens: 50,
      output_tokens_details: { reasoning_tokens: 20 },
      total_tokens: 150,
    });
  });
});

describe('openAIResponsesCodec errors', () => {
  it('formats the OpenAI error body and the Responses stream error event', () => {
    expect(
      JSON.parse(openAIResponsesCodec.formatError({ status: 400, message: 'bad', param: 'input' })),
    ).toEqual({
      error: { message: 'bad', type: 'invalid_request_error', param: 'input', code: null },
    });
    const event = openAIResponsesCodec.formatStreamError({
      status: 500,
      message: 'boom',
      code: 'server_error',
    });
    expect(event.startsWith('event: error\ndata: ')).toBe(true);
    expect(event.endsWith('\n\n')).toBe(true);
    expect(JSON.parse(event.split('data: ')[1]!)).toEqual({
      type: 'error',
      code: 'server_error',
      message: 'boom',
      param: null,
      sequence_number: 0,
    });
    expect(openAIResponsesCodec.streamEndMarker).toBeUndefined();
    expect(openAIResponsesCodec.formatUsageEvent).toBeUndefined();
  });
});

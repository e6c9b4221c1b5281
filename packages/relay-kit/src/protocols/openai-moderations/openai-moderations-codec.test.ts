import { describe, expect, it } from 'vitest';
import { openAIAdapter } from '../../providers/openai/openai-adapter.js';
import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import { isRelayRequestError, type RelayRequestError } from '../../spec/request-error.js';
import { toBytes } from '../../testing/sse-fixtures.js';
import { estimatePromptTokens } from '../../tokens/estimate-prompt-tokens.js';
import { openAIModerationsCodec, parseOpenAIModerationsRequest } from './openai-moderations-codec.js';
import { DEFAULT_MODERATION_MODEL } from './openai-moderations-schemas.js';

function caught(run: () => unknown): RelayRequestError {
  try {
    run();
  } catch (error) {
    if (isRelayRequestError(error)) return error;
    throw error;
  }
  throw new Error('expected a RelayRequestError');
}

const parseError = (body: unknown) =>
  caught(() =>
    openAIModerationsCodec.parseRequest(typeof body === 'string' ? { rawBody: body } : { json: body }),
  );

const channel: ChannelRuntime = { type: 1, key: 'sk-test-key' };

describe('openAIModerationsCodec.parseRequest', () => {
  it('normalises a request, never streaming, and keeps body and bytes', () => {
    const raw = toBytes(JSON.stringify({ model: 'omni-moderation-latest', input: 'I want to hurt them.' }));
    const call = openAIModerationsCodec.parseRequest({ rawBody: raw, path: '/v1/moderations' });
    expect(call).toMatchObject({
      protocol: 'openai-moderations',
      model: 'omni-moderation-latest',
      upstreamModel: 'omni-moderation-latest',
      stream: false,
      includeUsage: false,
      maxTokens: undefined,
      path: '/v1/moderations',
    });
    expect(call.rawBody).toBe(raw);
  });

  it('defaults a missing, null or empty model to text-moderation-stable', () => {
    expect(DEFAULT_MODERATION_MODEL).toBe('text-moderation-stable');
    for (const body of [{ input: 'x' }, { input: 'x', model: null }, { input: 'x', model: '' }]) {
      expect(parseOpenAIModerationsRequest({ json: body })).toMatchObject({
        model: 'text-moderation-stable',
        upstreamModel: 'text-moderation-stable',
      });
    }
  });

  it.each([
    ['', 'request:invalid_json', undefined, 'request body is empty'],
    ['{"input"', 'request:invalid_json', undefined, 'request body is not valid JSON'],
    ['null', 'request:invalid_body', undefined, 'request body must be a JSON object'],
    [{ model: 'omni-moderation-latest' }, 'request:invalid_body', 'input', '"input" is required'],
    [{ input: null }, 'request:invalid_body', 'input', '"input" is required'],
    [
      { input: 42 },
      'request:invalid_body',
      'input',
      '"input" must be a string, an array of strings or an array of content parts, got the number 42',
    ],
    [{ input: [] }, 'request:invalid_body', 'input', '"input" must not be an empty array'],
    [
      { input: ['ok', 3] },
      'request:invalid_body',
      'input[1]',
      'input[1] must be a string or a content part object, got the number 3',
    ],
    [
      { input: [['nested']] },
      'request:invalid_body',
      'input[0]',
      'input[0] must be a string or a content part object, got an array',
    ],
    [
      { input: [{ text: 'x' }] },
      'request:invalid_body',
      'input[0].type',
      'input[0].type must be a non-empty string',
    ],
    [
      {
        input: [
          { type: 'text', text: 'a' },
          { type: 'text', text: { value: 'b' } },
        ],
      },
      'request:invalid_body',
      'input[1].text',
      'input[1].text must be a string, got an object',
    ],
    [{ input: 'x', model: 1 }, 'request:invalid_body', 'model', '"model" must be a string, got the number 1'],
    [{ input: 'x', model: ' ' }, 'request:invalid_body', 'model', '"model" must not be empty'],
  ] as const)('rejects %j', (body, code, param, message) => {
    const error = parseError(body);
    expect(error.code).toBe(code);
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message.startsWith(message)).toBe(true);
  });
});

describe('openAIModerationsCodec prompt input', () => {
  const promptOf = (input: unknown) => parseOpenAIModerationsRequest({ json: { input } }).prompt;

  it('collects text only: strings, string arrays and text parts, never images', () => {
    expect(promptOf('one')).toEqual({ texts: ['one'] });
    expect(promptOf(['a', 'b'])).toEqual({ texts: ['a', 'b'] });
    expect(
      promptOf([
        { type: 'text', text: 'is this ok?' },
        { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
        { type: 'future_part', data: 1 },
      ]),
    ).toEqual({ texts: ['is this ok?'] });
    expect(promptOf([{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }])).toEqual({
      texts: [],
    });
  });

  it('estimates the texts without message overhead', () => {
    const model = DEFAULT_MODERATION_MODEL;
    const single = estimatePromptTokens({ texts: ['is this ok?'] }, model).tokens;
    expect(single).toBeGreaterThan(0);
    const mixed = promptOf([
      { type: 'text', text: 'is this ok?' },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
      'is this ok?',
    ]);
    expect(estimatePromptTokens(mixed, model).tokens).toBe(2 * single);
  });
});

describe('openAIModerationsCodec responses', () => {
  it('formats the OpenAI error body', () => {
    expect(
      JSON.parse(
        openAIModerationsCodec.formatError({
          status: 429,
          message: 'slow down',
          type: 'rate_limit_exceeded',
          code: 'rate_limit',
        }),
      ),
    ).toEqual({
      error: { message: 'slow down', type: 'rate_limit_exceeded', param: null, code: 'rate_limit' },
    });
  });

  it('has no stream events and refuses conversion', () => {
    expect(openAIModerationsCodec.formatUsageEvent).toBeUndefined();
    expect(openAIModerationsCodec.streamEndMarker).toBeUndefined();
    const call = parseOpenAIModerationsRequest({ json: { input: 'x' } });
    for (const run of [
      () =>
        openAIModerationsCodec.toClientResponse(
          { id: '', model: '', created: 0, choices: [], raw: {} },
          call,
        ),
      () => openAIModerationsCodec.toClientStream(call),
    ]) {
      const error = caught(run);
      expect(error.code).toBe('request:unsupported_protocol');
      expect(error.status).toBe(501);
    }
  });
});

describe('openAIModerationsCodec → openAIAdapter.buildRequest', () => {
  it('forwards the client bytes unchanged to /v1/moderations', () => {
    for (const body of [
      { model: 'omni-moderation-latest', input: 'x' },
      { input: ['a', 'b'], model: 'text-moderation-latest' },
      {
        model: 'omni-moderation-2024-09-26',
        input: [{ type: 'image_url', image_url: { url: 'https://e/a.png' } }],
      },
    ]) {
      const raw = toBytes(JSON.stringify(body));
      const call = parseOpenAIModerationsRequest({ rawBody: raw, path: '/v1/moderations' });
      const request = openAIAdapter.buildRequest(call, channel);
      expect(request.url).toBe('https://api.openai.com/v1/moderations');
      expect(request.body).toBe(raw);
      expect(request.upstreamModel).toBe(body.model);
      expect(request.streamUsageForced).toBe(false);
      expect(request.warnings).toEqual([]);
    }
  });

  it('writes the default model into the body when the client sent none', () => {
    const call = parseOpenAIModerationsRequest({ rawBody: toBytes('{"input":"x"}') });
    const request = openAIAdapter.buildRequest(call, channel);
    expect(request.body).toBe('{"input":"x","model":"text-moderation-stable"}');
    expect(request.upstreamModel).toBe('text-moderation-stable');
  });
});

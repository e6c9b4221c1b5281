import { describe, expect, it } from 'vitest';
import { openAIAdapter } from '../../providers/openai/openai-adapter.js';
import type { ChannelRuntime } from '../../spec/channel-runtime.js';
import { isRelayRequestError, type RelayRequestError } from '../../spec/request-error.js';
import { toBytes } from '../../testing/sse-fixtures.js';
import { estimatePromptTokens } from '../../tokens/estimate-prompt-tokens.js';
import { openAIEmbeddingsCodec, parseOpenAIEmbeddingsRequest } from './openai-embeddings-codec.js';
import { readEnginesPathModel } from './openai-embeddings-schemas.js';

function caught(run: () => unknown): RelayRequestError {
  try {
    run();
  } catch (error) {
    if (isRelayRequestError(error)) return error;
    throw error;
  }
  throw new Error('expected a RelayRequestError');
}

const parseError = (body: unknown, path?: string) =>
  caught(() =>
    openAIEmbeddingsCodec.parseRequest(
      typeof body === 'string' ? { rawBody: body, path } : { json: body, path },
    ),
  );

const channel: ChannelRuntime = { type: 1, key: 'sk-test-key' };
const decoder = new TextDecoder();

describe('openAIEmbeddingsCodec.parseRequest', () => {
  it('normalises a request, never streaming, and keeps body and bytes', () => {
    const raw = toBytes(
      JSON.stringify({
        model: 'text-embedding-3-small',
        input: 'The food was delicious',
        encoding_format: 'base64',
        dimensions: 256,
        stream: true,
      }),
    );
    const call = openAIEmbeddingsCodec.parseRequest({ rawBody: raw, path: '/v1/embeddings' });
    expect(call).toMatchObject({
      protocol: 'openai-embeddings',
      model: 'text-embedding-3-small',
      upstreamModel: 'text-embedding-3-small',
      stream: false,
      includeUsage: false,
      maxTokens: undefined,
      path: '/v1/embeddings',
    });
    expect(call.rawBody).toBe(raw);
    expect(call.body.dimensions).toBe(256);
  });

  it('takes the model from /v1/engines/{model}/embeddings when the body has none', () => {
    const path = '/v1/engines/text-embedding-ada-002/embeddings';
    expect(parseOpenAIEmbeddingsRequest({ json: { input: 'x' }, path }).model).toBe('text-embedding-ada-002');
    expect(parseOpenAIEmbeddingsRequest({ json: { input: 'x', model: null }, path }).model).toBe(
      'text-embedding-ada-002',
    );
    expect(parseOpenAIEmbeddingsRequest({ json: { input: 'x', model: '' }, path }).model).toBe(
      'text-embedding-ada-002',
    );
    // The body wins when it names a model.
    expect(parseOpenAIEmbeddingsRequest({ json: { input: 'x', model: 'bge-m3' }, path }).model).toBe(
      'bge-m3',
    );
  });

  it('reads the engines path model', () => {
    expect(readEnginesPathModel('/v1/engines/text-embedding-ada-002/embeddings')).toBe(
      'text-embedding-ada-002',
    );
    expect(readEnginesPathModel('/v1/engines/org%2Fmodel/embeddings/')).toBe('org/model');
    expect(readEnginesPathModel('/v1/engines/bad%E0/embeddings')).toBe('bad%E0');
    expect(readEnginesPathModel('/v1/embeddings')).toBeUndefined();
    expect(readEnginesPathModel('/v1/engines//embeddings')).toBeUndefined();
    expect(readEnginesPathModel(undefined)).toBeUndefined();
  });

  it.each([
    ['', undefined, 'request:invalid_json', undefined, 'request body is empty'],
    ['{"input":', undefined, 'request:invalid_json', undefined, 'request body is not valid JSON'],
    ['[]', undefined, 'request:invalid_body', undefined, 'request body must be a JSON object'],
    [{ input: 'x' }, '/v1/embeddings', 'request:invalid_body', 'model', '"model" is required'],
    [{ input: 'x' }, '/v1/engines/%20/embeddings', 'request:invalid_body', 'model', '"model" is required'],
    [
      { model: 7, input: 'x' },
      '/v1/engines/m/embeddings',
      'request:invalid_body',
      'model',
      '"model" must be a string, got the number 7',
    ],
    [{ model: '  ', input: 'x' }, undefined, 'request:invalid_body', 'model', '"model" must not be empty'],
    [{ model: 'm' }, undefined, 'request:invalid_body', 'input', '"input" is required'],
    [{ model: 'm', input: null }, undefined, 'request:invalid_body', 'input', '"input" is required'],
    [
      { model: 'm', input: { text: 'x' } },
      undefined,
      'request:invalid_body',
      'input',
      '"input" must be a string, an array of strings, an array of token ids or an array of token id arrays, got an object',
    ],
    [
      { model: 'm', input: [] },
      undefined,
      'request:invalid_body',
      'input',
      '"input" must not be an empty array',
    ],
    [
      { model: 'm', input: ['a', null] },
      undefined,
      'request:invalid_body',
      'input[1]',
      'input[1] must be a string, got null',
    ],
    [
      { model: 'm', input: [5, true] },
      undefined,
      'request:invalid_body',
      'input[1]',
      'input[1] must be a token id (a non-negative integer), got true',
    ],
    [
      { model: 'm', input: [[5], 6] },
      undefined,
      'request:invalid_body',
      'input[1]',
      'input[1] must be an array of token ids, got the number 6',
    ],
    [
      { model: 'm', input: [[5, '6']] },
      undefined,
      'request:invalid_body',
      'input[0][1]',
      'input[0][1] must be a token id (a non-negative integer), got a string',
    ],
  ] as const)('rejects %j on %s', (body, path, code, param, message) => {
    const error = parseError(body, path);
    expect(error.code).toBe(code);
    expect(error.status).toBe(400);
    expect(error.param).toBe(param);
    expect(error.message.startsWith(message)).toBe(true);
  });
});

describe('openAIEmbeddingsCodec prompt input', () => {
  const promptOf = (input: unknown) =>
    parseOpenAIEmbeddingsRequest({ json: { model: 'text-embedding-3-small', input } }).prompt;

  it('is the input texts, with token arrays counted by length', () => {
    const batch = ['a', 'b', 'c'];
    expect(promptOf(batch).texts).toBe(batch);
    expect(promptOf('one')).toEqual({ texts: ['one'] });
    expect(promptOf([101, 102, 103])).toEqual({ texts: [], tokenCount: 3 });
    expect(promptOf([[101, 102], [103]])).toEqual({ texts: [], tokenCount: 3 });
    expect(promptOf(batch).messages).toBeUndefined();
  });

  it('estimates each text without message overhead', () => {
    const model = 'text-embedding-3-small';
    const single = estimatePromptTokens({ texts: ['The food was delicious'] }, model).tokens;
    expect(single).toBeGreaterThan(0);
    expect(
      estimatePromptTokens(promptOf(['The food was delicious', 'The food was delicious']), model).tokens,
    ).toBe(2 * single);
  });
});

describe('openAIEmbeddingsCodec responses', () => {
  it('formats the OpenAI error body', () => {
    expect(
      JSON.parse(
        openAIEmbeddingsCodec.formatError({ status: 400, message: '"input" is required', param: 'input' }),
      ),
    ).toEqual({
      error: { message: '"input" is required', type: 'invalid_request_error', param: 'input', code: null },
    });
    expect(JSON.parse(openAIEmbeddingsCodec.formatError({ status: 503, message: 'busy' })).error.type).toBe(
      'server_error',
    );
  });

  it('has no stream events and refuses conversion', () => {
    expect(openAIEmbeddingsCodec.formatUsageEvent).toBeUndefined();
    expect(openAIEmbeddingsCodec.streamEndMarker).toBeUndefined();
    const call = parseOpenAIEmbeddingsRequest({ json: { model: 'm', input: 'x' } });
    for (const run of [
      () =>
        openAIEmbeddingsCodec.toClientResponse({ id: '', model: '', created: 0, choices: [], raw: {} }, call),
      () => openAIEmbeddingsCodec.toClientStream(call),
    ]) {
      const error = caught(run);
      expect(error.code).toBe('request:unsupported_protocol');
      expect(error.status).toBe(501);
    }
  });
});

describe('openAIEmbeddingsCodec → openAIAdapter.buildRequest', () => {
  it('forwards the client bytes unchanged to /v1/embeddings', () => {
    for (const body of [
      { model: 'text-embedding-3-small', input: 'x' },
      { model: 'text-embedding-3-large', input: ['a', 'b'], dimensions: 1024, encoding_format: 'float' },
      { input: [[1, 2]], model: 'text-embedding-ada-002', user: 'u-1' },
    ]) {
      const raw = toBytes(JSON.stringify(body));
      const call = parseOpenAIEmbeddingsRequest({ rawBody: raw, path: '/v1/embeddings' });
      const request = openAIAdapter.buildRequest(call, channel);
      expect(request.url).toBe('https://api.openai.com/v1/embeddings');
      expect(request.body).toBe(raw);
      expect(request.upstreamModel).toBe(body.model);
      expect(request.streamUsageForced).toBe(false);
      expect(request.warnings).toEqual([]);
    }
  });

  it('forwards the engines form to /v1/embeddings with the path model in the body', () => {
    const call = parseOpenAIEmbeddingsRequest({
      rawBody: toBytes('{"input":"x"}'),
      path: '/v1/engines/text-embedding-ada-002/embeddings',
    });
    const request = openAIAdapter.buildRequest(call, channel);
    expect(request.url).toBe('https://api.openai.com/v1/embeddings');
    expect(request.body).toBe('{"input":"x","model":"text-embedding-ada-002"}');
    expect(request.upstreamModel).toBe('text-embedding-ada-002');
  });

  it('rewrites only the model when the channel maps it', () => {
    const call = parseOpenAIEmbeddingsRequest({ rawBody: toBytes('{"model":"emb","input":"x"}') });
    const request = openAIAdapter.buildRequest(call, {
      ...channel,
      modelMapping: { emb: 'text-embedding-3-small' },
    });
    expect(typeof request.body === 'string' ? request.body : decoder.decode(request.body)).toBe(
      '{"model":"text-embedding-3-small","input":"x"}',
    );
  });
});

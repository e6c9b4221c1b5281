import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { isUpstreamError, upstreamErrorFromException } from '../../spec/upstream-error.js';
import { readRetryAfterMs } from '../classify-upstream-error.js';
import { openAIAdapter } from './openai-adapter.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');
const openAIError = (message: string, type: string | null, code: string | null) =>
  JSON.stringify({ error: { message, type, param: null, code } });

// status × body → [code, retryable, channelFault]
const table: Array<[string, number, string, string, boolean, boolean]> = [
  ['invalid key', 401, fixture('openai-error-invalid-key.json'), 'channel:invalid_key', true, true],
  ['401 without body', 401, '', 'channel:invalid_key', true, true],
  [
    'insufficient quota 429',
    429,
    fixture('openai-error-insufficient-quota.json'),
    'channel:quota_exhausted',
    true,
    true,
  ],
  ['rate limit 429', 429, fixture('openai-error-rate-limit.json'), 'upstream:rate_limited', true, false],
  [
    'payment required (DeepSeek)',
    402,
    '{"error":{"message":"Insufficient Balance","type":"unknown_error","param":null,"code":"invalid_request_error"}}',
    'channel:quota_exhausted',
    true,
    true,
  ],
  [
    'permission 403',
    403,
    openAIError('Project does not have access to model', 'invalid_request_error', 'model_not_found'),
    'channel:forbidden',
    true,
    true,
  ],
  [
    'region 403',
    403,
    openAIError(
      'Country, region, or territory not supported',
      'request_forbidden',
      'unsupported_country_region_territory',
    ),
    'channel:forbidden',
    true,
    true,
  ],
  [
    'model not found 404',
    404,
    fixture('openai-error-model-not-found.json'),
    'channel:model_not_found',
    true,
    true,
  ],
  [
    'model not exist 400 (DeepSeek)',
    400,
    '{"error":{"message":"Model Not Exist","type":"invalid_request_error","param":null,"code":"invalid_request_error"}}',
    'channel:model_not_found',
    true,
    true,
  ],
  [
    'HTML 404 (wrong base URL)',
    404,
    '<html><body><h1>404 Not Found</h1></body></html>',
    'channel:bad_endpoint',
    true,
    true,
  ],
  [
    'JSON 404 for another resource',
    404,
    openAIError('No such file: file-abc', 'invalid_request_error', null),
    'upstream:bad_request',
    false,
    false,
  ],
  [
    'context length 400',
    400,
    fixture('openai-error-context-length.json'),
    'upstream:bad_request',
    false,
    false,
  ],
  [
    'invalid parameter 400',
    400,
    openAIError(
      "Unsupported parameter: 'max_tokens' is not supported with this model.",
      'invalid_request_error',
      'unsupported_parameter',
    ),
    'upstream:bad_request',
    false,
    false,
  ],
  [
    'credit too low at 400 (Anthropic via proxy)',
    400,
    '{"type":"error","error":{"type":"invalid_request_error","message":"Your credit balance is too low to access the Anthropic API."}}',
    'channel:quota_exhausted',
    true,
    true,
  ],
  [
    'unprocessable 422',
    422,
    '{"detail":[{"loc":["body","messages"],"msg":"field required","type":"value_error.missing"}]}',
    'upstream:bad_request',
    false,
    false,
  ],
  ['timeout 408', 408, '', 'upstream:timeout', true, false],
  [
    'server error 500',
    500,
    openAIError('The server had an error while processing your request.', 'server_error', null),
    'upstream:server_error',
    true,
    false,
  ],
  [
    'bad gateway HTML 502',
    502,
    '<html><head><title>502 Bad Gateway</title></head></html>',
    'upstream:server_error',
    true,
    false,
  ],
  [
    'overloaded 503',
    503,
    openAIError('The engine is currently overloaded', 'server_error', null),
    'upstream:server_error',
    true,
    false,
  ],
  ['gateway timeout 504', 504, '', 'upstream:timeout', false, false],
  ['Cloudflare timeout 524', 524, 'error code: 524', 'upstream:timeout', false, false],
  ['Cloudflare 520', 520, 'error code: 520', 'upstream:server_error', true, false],
  ['redirect 307', 307, '', 'channel:bad_endpoint', true, true],
  [
    'error body with 200',
    200,
    openAIError('upstream failure', 'server_error', null),
    'upstream:bad_response',
    true,
    false,
  ],
];

describe('openAIAdapter.parseError', () => {
  it.each(table)('%s (%i)', (_name, status, body, code, retryable, channelFault) => {
    const error = openAIAdapter.parseError(status, body);
    expect(isUpstreamError(error)).toBe(true);
    expect({ code: error.code, retryable: error.retryable, channelFault: error.channelFault }).toEqual({
      code,
      retryable,
      channelFault,
    });
    expect(error.status).toBe(status);
    expect(error.rawBody).toBe(body);
  });

  it('keeps the OpenAI fields and masks keys and URLs in the message', () => {
    const error = openAIAdapter.parseError(401, fixture('openai-error-invalid-key.json'));
    expect(error.type).toBe('invalid_request_error');
    expect(error.upstreamCode).toBe('invalid_api_key');
    expect(error.message).toBe('Incorrect API key provided: [secret]. You can find your API key at [url].');
    expect(error.message).not.toContain('sk-proj');
  });

  it('reads the blamed parameter', () => {
    expect(openAIAdapter.parseError(400, fixture('openai-error-context-length.json')).param).toBe('messages');
  });

  it('describes non-JSON bodies without leaking them', () => {
    expect(openAIAdapter.parseError(502, '<html>secret internal page</html>').message).toBe(
      'bad response status code 502',
    );
    expect(openAIAdapter.parseError(500, '').message).toBe('bad response status code 500');
    expect(openAIAdapter.parseError(503, 'upstream connect error to 10.0.0.7:443').message).toBe(
      'bad response status code 503: upstream connect error to [address]',
    );
  });

  it('understands the variants of compatible upstreams', () => {
    expect(openAIAdapter.parseError(400, '{"error":"bad things"}').message).toBe('bad things');
    expect(openAIAdapter.parseError(400, '{"message":"flat message","code":1234}').upstreamCode).toBe('1234');
    expect(openAIAdapter.parseError(400, '{"detail":"FastAPI detail"}').message).toBe('FastAPI detail');
    const gemini = openAIAdapter.parseError(
      400,
      '[{"error":{"code":400,"message":"API key not valid. Please pass a valid API key.","status":"INVALID_ARGUMENT"}}]',
    );
    expect(gemini.type).toBe('INVALID_ARGUMENT');
    expect(gemini.code).toBe('channel:invalid_key');
    expect(openAIAdapter.parseError(400, '{"unexpected":true}').message).toBe(
      'bad response status code 400: {"unexpected":true}',
    );
  });

  it('reads Retry-After from Headers or records', () => {
    const error = openAIAdapter.parseError(
      429,
      fixture('openai-error-rate-limit.json'),
      new Headers({ 'retry-after': '2' }),
    );
    expect(error.retryAfterMs).toBe(2000);
    expect(readRetryAfterMs({ 'Retry-After-Ms': '150' })).toBe(150);
    expect(
      readRetryAfterMs(
        { 'retry-after': 'Wed, 21 Oct 2015 07:28:10 GMT' },
        Date.parse('Wed, 21 Oct 2015 07:28:00 GMT'),
      ),
    ).toBe(10_000);
    expect(readRetryAfterMs({})).toBeUndefined();
  });

  it('truncates huge bodies kept for logs', () => {
    const error = openAIAdapter.parseError(500, 'x'.repeat(100_000));
    expect(error.rawBody?.length).toBe(4096);
  });
});

describe('upstreamErrorFromException', () => {
  it('classifies timeouts as retryable', () => {
    const headersTimeout = Object.assign(new Error('Headers Timeout Error'), {
      code: 'UND_ERR_HEADERS_TIMEOUT',
    });
    const error = upstreamErrorFromException(new TypeError('fetch failed', { cause: headersTimeout }));
    expect([error.code, error.retryable, error.channelFault, error.status]).toEqual([
      'upstream:timeout',
      true,
      false,
      0,
    ]);
    expect(upstreamErrorFromException(new DOMException('aborted', 'TimeoutError')).code).toBe(
      'upstream:timeout',
    );
  });

  it('blames the channel for DNS and refused connections, never leaking the host', () => {
    const dns = Object.assign(new Error('getaddrinfo ENOTFOUND api.example.com'), { code: 'ENOTFOUND' });
    const error = upstreamErrorFromException(new TypeError('fetch failed', { cause: dns }));
    expect([error.code, error.retryable, error.channelFault]).toEqual(['upstream:network_error', true, true]);
    expect(error.message).toBe('failed to reach the upstream (ENOTFOUND)');
    const reset = upstreamErrorFromException(
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
    );
    expect([reset.retryable, reset.channelFault]).toEqual([true, false]);
  });

  it('passes an UpstreamError through', () => {
    const original = openAIAdapter.parseError(500, '');
    expect(upstreamErrorFromException(original)).toBe(original);
  });
});

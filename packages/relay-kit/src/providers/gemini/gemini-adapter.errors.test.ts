import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { geminiAdapter } from './gemini-adapter.js';

const fixture = (name: string) => readFileSync(new URL(`./__fixtures__/${name}`, import.meta.url), 'utf8');

describe('geminiAdapter.parseError', () => {
  it.each([
    ['gemini-error-invalid-key.json', 400, 'channel:invalid_key', true, true, 'API_KEY_INVALID'],
    ['gemini-error-permission-denied.json', 403, 'channel:forbidden', true, true, 'PERMISSION_DENIED'],
    ['gemini-error-rate-limit.json', 429, 'upstream:rate_limited', true, false, 'RESOURCE_EXHAUSTED'],
    ['gemini-error-bad-request.json', 400, 'upstream:bad_request', false, false, 'INVALID_ARGUMENT'],
  ] as const)('classifies %s', (name, status, code, retryable, channelFault, upstreamCode) => {
    const error = geminiAdapter.parseError(status, fixture(name), { 'retry-after': '3' });
    expect([error.code, error.retryable, error.channelFault, error.upstreamCode]).toEqual([
      code,
      retryable,
      channelFault,
      upstreamCode,
    ]);
    expect(error.status).toBe(status);
    expect(error.retryAfterMs).toBe(3000);
    expect(error.message).not.toContain('https://');
  });

  it('handles 401, 5xx, array-wrapped and non-JSON bodies', () => {
    expect(
      geminiAdapter.parseError(
        401,
        '{"error":{"code":401,"message":"Request had invalid authentication credentials.","status":"UNAUTHENTICATED"}}',
      ).code,
    ).toBe('channel:invalid_key');
    const internal = geminiAdapter.parseError(
      500,
      '[{"error":{"code":500,"message":"An internal error has occurred.","status":"INTERNAL"}}]',
    );
    expect([internal.code, internal.retryable, internal.message]).toEqual([
      'upstream:server_error',
      true,
      'An internal error has occurred.',
    ]);
    expect(geminiAdapter.parseError(503, '<html>busy</html>').message).toBe('bad response status code 503');
    expect(
      geminiAdapter.parseError(
        400,
        '{"error":{"code":400,"message":"User location is not supported for the API use.","status":"FAILED_PRECONDITION"}}',
      ).channelFault,
    ).toBe(true);
  });
});

describe('geminiAdapter.listModels', () => {
  it('follows pages and keeps generateContent models without the models/ prefix', async () => {
    const urls: string[] = [];
    const fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      urls.push(String(input));
      expect(new Headers(init?.headers).get('x-goog-api-key')).toBe('AIzaKey');
      const page = String(input).includes('pageToken=')
        ? 'gemini-models-page2.json'
        : 'gemini-models-page1.json';
      return new Response(fixture(page), { status: 200 });
    }) as typeof globalThis.fetch;
    const models = await geminiAdapter.listModels!({ type: 24, key: 'AIzaKey' }, fetch);
    expect(models).toEqual(['gemini-2.5-pro', 'gemini-2.0-flash']);
    expect(urls).toEqual([
      'https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000',
      'https://generativelanguage.googleapis.com/v1beta/models?pageSize=1000&pageToken=Ch1tb2RlbHMvZ2VtaW5pLTIuMC1mbGFzaA%3D%3D',
    ]);
  });

  it('throws the parsed upstream error', async () => {
    const fetch = (async () =>
      new Response(fixture('gemini-error-invalid-key.json'), {
        status: 400,
      })) as unknown as typeof globalThis.fetch;
    await expect(geminiAdapter.listModels!({ type: 24, key: 'bad' }, fetch)).rejects.toMatchObject({
      code: 'channel:invalid_key',
    });
  });
});

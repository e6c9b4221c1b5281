import { describe, expect, it } from 'vitest';
import { redactCredentials, redactUrl } from './redact-credentials.ts';

const stored = 'a'.repeat(24) + 'B'.repeat(24);

describe('redactUrl', () => {
  it('keeps URLs without credentials as they are', () => {
    expect(redactUrl('/v1/chat/completions')).toBe('/v1/chat/completions');
    expect(redactUrl('/api/log/?p=1&type=2')).toBe('/api/log/?p=1&type=2');
  });

  it('redacts every credential parameter, whatever its value', () => {
    expect(redactUrl('/v1beta/models/gemini:generateContent?key=sk-abcdef123&alt=sse')).toBe(
      '/v1beta/models/gemini:generateContent?key=[redacted]&alt=sse',
    );
    expect(redactUrl('/x?api_key=1&token=2&access_token=3&KEY=4')).toBe(
      '/x?api_key=[redacted]&token=[redacted]&access_token=[redacted]&KEY=[redacted]',
    );
    expect(redactUrl('/x?k%65y=secret#frag')).toBe('/x?k%65y=[redacted]#frag');
  });

  it('redacts values shaped like a token key under any name', () => {
    expect(redactUrl(`/x?who=sk-${stored}`)).toBe('/x?who=[redacted]');
    expect(redactUrl(`/x?who=${stored}&p=0`)).toBe('/x?who=[redacted]&p=0');
    expect(redactUrl(`/x?who=sk%2D${stored}`)).toBe('/x?who=[redacted]');
    expect(redactUrl('/x?g=AIzaSyA0123456789abcdefghijkl')).toBe('/x?g=[redacted]');
  });
});

describe('redactCredentials', () => {
  it('redacts credential parameters and token-shaped values in free text', () => {
    const message =
      'connect ECONNREFUSED https://upstream.example/v1beta/models/x?key=AIzaSecretValue1234567890&alt=sse ' +
      `(token sk-${stored}, header Bearer abcdefgh12345678)`;
    const redacted = redactCredentials(message);
    expect(redacted).not.toContain('AIzaSecret');
    expect(redacted).not.toContain(stored);
    expect(redacted).not.toContain('abcdefgh12345678');
    expect(redacted).toContain('https://upstream.example/v1beta/models/x?key=[redacted]&alt=sse');
  });

  it('leaves ordinary messages alone', () => {
    expect(redactCredentials('无可用渠道 (distributor)')).toBe('无可用渠道 (distributor)');
  });
});

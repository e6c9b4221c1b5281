import { describe, expect, it } from 'vitest';
import { targetOf } from './upstream-client.ts';

describe('targetOf', () => {
  it('splits a URL into origin and path + query like undici request(url)', () => {
    expect(targetOf('http://127.0.0.1:4010/v1/chat/completions')).toEqual({
      origin: 'http://127.0.0.1:4010',
      path: '/v1/chat/completions',
    });
    expect(targetOf('https://Example.COM:443/openai/deployments/x/chat?api-version=2024-02-01#frag')).toEqual(
      {
        origin: 'https://example.com',
        path: '/openai/deployments/x/chat?api-version=2024-02-01',
      },
    );
    expect(targetOf('http://host.test')).toEqual({ origin: 'http://host.test', path: '/' });
    expect(targetOf('http://host.test/a b/é')).toEqual({ origin: 'http://host.test', path: '/a%20b/%C3%A9' });
  });

  it('returns the same split for a repeated URL and refuses other protocols', () => {
    const url = 'http://127.0.0.1:4010/v1/embeddings';
    expect(targetOf(url)).toBe(targetOf(url));
    expect(() => targetOf('ftp://host.test/x')).toThrow(/http: or https:|must start with/);
    expect(() => targetOf('not a url')).toThrow();
  });
});

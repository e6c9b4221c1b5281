import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getProviderAdapter } from '../registry.js';
import { createZhipuToken, ZHIPU_TOKEN_TTL_MS } from './zhipu-token.js';

const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8'));

describe('Zhipu v4 credentials', () => {
  it('signs an HS256 JWT from id.secret with millisecond exp and timestamp', () => {
    const token = createZhipuToken('abc123.s3cr3t', 1_700_000_000_000);
    const [header, payload, signature] = token.split('.');
    expect(decode(header!)).toEqual({ alg: 'HS256', sign_type: 'SIGN' });
    expect(decode(payload!)).toEqual({
      api_key: 'abc123',
      exp: 1_700_000_000_000 + ZHIPU_TOKEN_TTL_MS,
      timestamp: 1_700_000_000_000,
    });
    const expected = createHmac('sha256', 's3cr3t').update(`${header}.${payload}`).digest('base64url');
    expect(signature).toBe(expected);
  });

  it('uses any other key as is', () => {
    for (const key of ['plainkey', '.x', 'x.', 'a.b.c']) expect(createZhipuToken(key)).toBe(key);
  });

  it('sends the token as a bearer to /api/paas/v4', () => {
    const adapter = getProviderAdapter(26)!;
    const call = {
      protocol: 'openai-chat' as const,
      model: 'glm-4',
      upstreamModel: 'glm-4',
      stream: false,
      includeUsage: false,
      body: { model: 'glm-4', messages: [] },
      prompt: {},
    };
    const request = adapter.buildRequest(call, { type: 26, key: 'id.secret' });
    expect(request.url).toBe('https://open.bigmodel.cn/api/paas/v4/chat/completions');
    const token = request.headers.authorization!.slice('Bearer '.length);
    expect(decode(token.split('.')[1]!).api_key).toBe('id');
  });
});

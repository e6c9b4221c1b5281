import { describe, expect, it } from 'vitest';
import { openAIChatCodec } from './openai-chat/openai-chat-codec.js';
import { openAICompletionsCodec } from './openai-completions/openai-completions-codec.js';
import { hasZeroTokenLimit, withoutZeroTokenLimits } from './zero-token-limits.js';

const request = (body: Record<string, unknown>, path: string) => {
  const rawBody = JSON.stringify(body);
  return { rawBody, path, query: new URLSearchParams(), headers: {} };
};

describe('zero token limits', () => {
  it('drops max_tokens and max_completion_tokens only when they are 0', () => {
    expect(hasZeroTokenLimit({ max_tokens: 5 })).toBe(false);
    expect(hasZeroTokenLimit({ max_completion_tokens: 0 })).toBe(true);
    expect(withoutZeroTokenLimits({ model: 'm', max_tokens: 0, max_completion_tokens: 0, n: 0 })).toEqual({
      model: 'm',
      n: 0,
    });
    expect(withoutZeroTokenLimits({ max_tokens: 7, max_completion_tokens: 0 })).toEqual({ max_tokens: 7 });
  });

  it('makes the chat codec forward a body without max_tokens: 0 (no raw bytes to forward)', () => {
    const call = openAIChatCodec.parseRequest(
      request(
        { model: 'm', messages: [{ role: 'user', content: 'hi' }], max_tokens: 0 },
        '/v1/chat/completions',
      ),
    );
    expect(call.body).not.toHaveProperty('max_tokens');
    expect(call.rawBody).toBeUndefined();
    expect(call.maxTokens).toBeUndefined();
  });

  it('keeps the raw bytes when no limit is 0', () => {
    const sent = request(
      { model: 'm', messages: [{ role: 'user', content: 'hi' }], max_tokens: 9 },
      '/v1/chat/completions',
    );
    const call = openAIChatCodec.parseRequest(sent);
    expect(call.rawBody).toBe(sent.rawBody);
    expect(call.body.max_tokens).toBe(9);
  });

  it('applies to completions too', () => {
    const call = openAICompletionsCodec.parseRequest(
      request({ model: 'm', prompt: 'hi', max_tokens: 0 }, '/v1/completions'),
    );
    expect(call.body).not.toHaveProperty('max_tokens');
    expect(call.rawBody).toBeUndefined();
  });
});

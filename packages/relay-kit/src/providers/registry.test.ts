import { describe, expect, it } from 'vitest';
import { getProviderAdapter, isSupportedChannelType, listSupportedChannelTypes } from './registry.js';

describe('provider registry', () => {
  it('registers the OpenAI family', () => {
    const types = listSupportedChannelTypes();
    expect(types).toEqual([...types].sort((a, b) => a - b));
    // The OpenAI family.
    expect(types).toEqual(
      expect.arrayContaining([
        1, 3, 4, 6, 7, 8, 9, 12, 13, 19, 20, 22, 25, 26, 27, 31, 34, 35, 38, 39, 40, 42, 43, 44, 45, 46, 47,
        48, 58,
      ]),
    );
    expect(getProviderAdapter(1)?.name).toBe('openai');
    expect(getProviderAdapter(43)?.name).toBe('deepseek');
    expect(getProviderAdapter(1)).toBe(getProviderAdapter(1));
  });

  it('registers the Anthropic, Bedrock, Gemini and Vertex wire formats', () => {
    expect(getProviderAdapter(14)?.name).toBe('anthropic');
    expect(getProviderAdapter(33)?.name).toBe('aws-claude');
    expect(getProviderAdapter(24)?.name).toBe('gemini');
    expect(getProviderAdapter(41)?.name).toBe('vertex');
  });

  it('returns nothing for unsupported types', () => {
    // Task platforms (Midjourney 2/5, Suno 36) are served by the server's task relay, not here.
    for (const type of [0, 2, 5, 36, 999]) {
      expect(getProviderAdapter(type)).toBeUndefined();
      expect(isSupportedChannelType(type)).toBe(false);
    }
  });

  it('declares the native protocols of each adapter', () => {
    expect(getProviderAdapter(1)?.nativeProtocols).toContain('openai-chat');
    expect(getProviderAdapter(1)?.nativeProtocols).toContain('openai-embeddings');
    expect(getProviderAdapter(43)?.nativeProtocols).not.toContain('openai-embeddings');
  });
});

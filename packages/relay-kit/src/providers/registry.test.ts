import { describe, expect, it } from 'vitest';
import { getProviderAdapter, isSupportedChannelType, listSupportedChannelTypes } from './registry.js';

describe('provider registry', () => {
  it('registers OpenAI and DeepSeek', () => {
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

  it('returns nothing for unsupported types', () => {
    expect(getProviderAdapter(14)).toBeUndefined();
    expect(isSupportedChannelType(24)).toBe(false);
  });

  it('declares the native protocols of each adapter', () => {
    expect(getProviderAdapter(1)?.nativeProtocols).toContain('openai-chat');
    expect(getProviderAdapter(1)?.nativeProtocols).toContain('openai-embeddings');
    expect(getProviderAdapter(43)?.nativeProtocols).not.toContain('openai-embeddings');
  });
});

import { describe, expect, it } from 'vitest';
import { getProviderAdapter, isSupportedChannelType, listSupportedChannelTypes } from './registry.js';

describe('provider registry', () => {
  it('registers OpenAI and DeepSeek', () => {
    expect(listSupportedChannelTypes()).toEqual([1, 43]);
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

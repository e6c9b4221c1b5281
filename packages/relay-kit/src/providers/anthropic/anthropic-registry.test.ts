import { describe, expect, it } from 'vitest';
import { acceptsProtocol, isNativeProtocol } from '../../spec/provider-adapter.js';
import { getProviderAdapter } from '../registry.js';

describe('Claude adapters in the registry', () => {
  it('registers Anthropic (14) with native Messages and AWS Claude (33) conversion-only', () => {
    const anthropic = getProviderAdapter(14);
    expect(anthropic?.name).toBe('anthropic');
    expect(anthropic && isNativeProtocol(anthropic, 'anthropic-messages')).toBe(true);
    expect(anthropic && acceptsProtocol(anthropic, 'openai-chat')).toBe(true);
    const bedrock = getProviderAdapter(33);
    expect(bedrock?.name).toBe('aws-claude');
    expect(bedrock?.nativeProtocols).toEqual([]);
    expect(bedrock && acceptsProtocol(bedrock, 'anthropic-messages')).toBe(true);
    expect(typeof bedrock?.decodeStream).toBe('function');
  });
});

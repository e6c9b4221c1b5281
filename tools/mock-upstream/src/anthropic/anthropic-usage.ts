import type { MockUsage } from '../reply-plan.ts';

/**
 * Anthropic usage: `input_tokens` excludes cache reads and cache writes (the three add up to the
 * mock's prompt tokens); `output_tokens` includes thinking.
 */
export function buildAnthropicUsage(usage: MockUsage, outputTokens: number): Record<string, unknown> {
  return {
    input_tokens: usage.promptTokens - usage.cachedTokens - usage.cacheWriteTokens,
    cache_creation_input_tokens: usage.cacheWriteTokens,
    cache_read_input_tokens: usage.cachedTokens,
    cache_creation: { ephemeral_5m_input_tokens: usage.cacheWriteTokens, ephemeral_1h_input_tokens: 0 },
    output_tokens: outputTokens,
    service_tier: 'standard',
  };
}

/** The full output token count of a reply (visible output plus thinking). */
export function anthropicOutputTokens(usage: MockUsage): number {
  return usage.outputTokens + usage.reasoningTokens;
}

/** Maps the mock's neutral finish reason to Anthropic's `stop_reason`. */
export function mapAnthropicStopReason(finish: 'stop' | 'length' | 'tool'): string {
  return finish === 'tool' ? 'tool_use' : finish === 'length' ? 'max_tokens' : 'end_turn';
}

/** The signature the mock puts on thinking blocks (clients must send it back verbatim). */
export const mockThinkingSignature = 'bW9jay10aGlua2luZy1zaWduYXR1cmU=';

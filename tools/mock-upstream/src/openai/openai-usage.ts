import type { MockUsage } from '../reply-plan.ts';

/**
 * OpenAI chat usage: `prompt_tokens` includes the cached ones; `completion_tokens` includes
 * reasoning and is multiplied by `n` (every choice is generated).
 */
export function buildOpenAiChatUsage(usage: MockUsage, choiceCount: number): Record<string, unknown> {
  const completionTokens = (usage.outputTokens + usage.reasoningTokens) * choiceCount;
  return {
    prompt_tokens: usage.promptTokens,
    completion_tokens: completionTokens,
    total_tokens: usage.promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: usage.cachedTokens, audio_tokens: 0 },
    completion_tokens_details: {
      reasoning_tokens: usage.reasoningTokens * choiceCount,
      audio_tokens: 0,
      accepted_prediction_tokens: 0,
      rejected_prediction_tokens: 0,
    },
  };
}

/** Legacy completions and embeddings usage: only the three totals. */
export function buildOpenAiPlainUsage(
  promptTokens: number,
  completionTokens: number,
): Record<string, number> {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}

/** Maps the mock's neutral finish reason to OpenAI's. */
export function mapOpenAiFinishReason(finish: 'stop' | 'length' | 'tool'): string {
  return finish === 'tool' ? 'tool_calls' : finish;
}

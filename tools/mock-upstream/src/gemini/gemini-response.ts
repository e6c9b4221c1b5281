import type { MockUsage, ReplyPlan } from '../reply-plan.ts';

/**
 * Gemini `usageMetadata`: `promptTokenCount` includes cached tokens, `candidatesTokenCount`
 * excludes thoughts, `totalTokenCount` adds all three. Zero cache and thought counts are omitted,
 * as the real API omits them.
 */
export function buildGeminiUsageMetadata(usage: MockUsage): Record<string, unknown> {
  const metadata: Record<string, unknown> = {
    promptTokenCount: usage.promptTokens,
    candidatesTokenCount: usage.outputTokens,
    totalTokenCount: usage.promptTokens + usage.outputTokens + usage.reasoningTokens,
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: usage.promptTokens }],
  };
  if (usage.cachedTokens > 0) {
    metadata.cachedContentTokenCount = usage.cachedTokens;
    metadata.cacheTokensDetails = [{ modality: 'TEXT', tokenCount: usage.cachedTokens }];
  }
  if (usage.reasoningTokens > 0) metadata.thoughtsTokenCount = usage.reasoningTokens;
  return metadata;
}

/** Maps the mock's neutral finish reason to Gemini's (`STOP` for function calls too). */
export function mapGeminiFinishReason(finish: ReplyPlan['finish']): string {
  return finish === 'length' ? 'MAX_TOKENS' : 'STOP';
}

/** The parts of a complete (non-stream) candidate. */
export function buildGeminiParts(plan: ReplyPlan): Record<string, unknown>[] {
  const parts: Record<string, unknown>[] = [];
  if (plan.reasoning !== '') parts.push({ text: plan.reasoning, thought: true });
  if (plan.toolCall) {
    parts.push({ functionCall: { name: plan.toolCall.name, args: JSON.parse(plan.toolCall.argumentsJson) } });
  } else {
    parts.push({ text: plan.text });
  }
  return parts;
}

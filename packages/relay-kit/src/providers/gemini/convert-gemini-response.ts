import type { RelayCall } from '../../spec/relay-call.js';
import type { UnifiedChoice, UnifiedResponse, UnifiedToolCall } from '../../spec/unified-response.js';
import { convertGeminiUsage } from './convert-gemini-usage.js';
import type { GeminiResponse } from './gemini-api.js';
import { isRecord } from './gemini-api.js';
import { mapGeminiFinishReason } from './map-gemini-finish-reason.js';
import { readGeminiParts } from './read-gemini-parts.js';

/**
 * Converts a parsed `generateContent` body into a {@link UnifiedResponse}: one choice per
 * candidate (text, thoughts as reasoning, function calls as tool calls), the finish reason mapped
 * (`STOP` with a function call → `tool-calls`; no reason → `stop`), usage from `usageMetadata`.
 * A prompt blocked before generation (`promptFeedback.blockReason`, no candidates) becomes one
 * empty choice finished by `content-filter`.
 */
export function convertGeminiResponse(body: unknown, call: RelayCall): UnifiedResponse {
  const response = (isRecord(body) ? body : {}) as GeminiResponse;
  const choices: UnifiedChoice[] = [];
  const candidates = Array.isArray(response.candidates) ? response.candidates : [];
  candidates.forEach((candidate, position) => {
    if (!isRecord(candidate)) return;
    let text = '';
    let reasoning: string | undefined;
    const toolCalls: UnifiedToolCall[] = [];
    for (const item of readGeminiParts(candidate.content)) {
      if (item.kind === 'text') text += item.text;
      else if (item.kind === 'reasoning') reasoning = (reasoning ?? '') + item.text;
      else toolCalls.push({ id: item.id, name: item.name, arguments: item.arguments });
    }
    const rawReason = typeof candidate.finishReason === 'string' ? candidate.finishReason : undefined;
    choices.push({
      index: typeof candidate.index === 'number' ? candidate.index : position,
      text,
      reasoning,
      toolCalls,
      finishReason:
        mapGeminiFinishReason(rawReason, toolCalls.length > 0) ??
        (toolCalls.length > 0 ? 'tool-calls' : 'stop'),
      rawFinishReason: rawReason,
    });
  });
  const blockReason = response.promptFeedback?.blockReason;
  if (choices.length === 0 && typeof blockReason === 'string' && blockReason !== '') {
    choices.push({
      index: 0,
      text: '',
      toolCalls: [],
      finishReason: 'content-filter',
      rawFinishReason: blockReason,
    });
  }
  return {
    id: typeof response.responseId === 'string' ? response.responseId : '',
    model: typeof response.modelVersion === 'string' ? response.modelVersion : call.upstreamModel,
    created: Math.floor(Date.now() / 1000),
    choices,
    usage: convertGeminiUsage(response.usageMetadata),
    raw: body,
  };
}

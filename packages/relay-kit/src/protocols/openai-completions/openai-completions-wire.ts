import type { FinishReason } from '../../spec/finish-reason.js';
import type { ResponseMeta } from '../../spec/protocol-codec.js';
import type { Usage } from '../../spec/usage.js';
import { toOpenAIUsage } from '../openai-chat/openai-chat-wire.js';

/** The `object` of completions bodies and stream chunks. */
export const TEXT_COMPLETION_OBJECT = 'text_completion';

/**
 * The final usage-only chunk (`"choices": []`) OpenAI sends on `/v1/completions` streams when
 * `stream_options.include_usage` is set, as an SSE event. The gateway writes it itself when the
 * upstream sent no usage.
 */
export function formatOpenAICompletionsUsageChunk(usage: Usage, meta: ResponseMeta): string {
  return `data: ${JSON.stringify({
    id: meta.id,
    object: TEXT_COMPLETION_OBJECT,
    created: meta.created,
    model: meta.model,
    choices: [],
    usage: toOpenAIUsage(usage),
  })}\n\n`;
}

/**
 * The completions `finish_reason` for a unified reason. Completions know only `stop`, `length`
 * and `content_filter`; anything else (tool calls, errors) is reported as `stop`.
 */
export function toOpenAICompletionsFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    default:
      return 'stop';
  }
}

/** A fresh completion id in OpenAI's style (`cmpl-…`). */
export function newCompletionId(): string {
  return `cmpl-${crypto.randomUUID()}`;
}

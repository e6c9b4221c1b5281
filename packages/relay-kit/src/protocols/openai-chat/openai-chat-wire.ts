import type { FinishReason } from '../../spec/finish-reason.js';
import type { ClientError, ResponseMeta } from '../../spec/protocol-codec.js';
import type { Usage } from '../../spec/usage.js';

/**
 * The OpenAI error body: `{"error":{"message","type","param","code"}}`. `type` defaults to
 * `invalid_request_error` for 4xx and `server_error` otherwise; `param` and `code` are `null`
 * when unknown, as OpenAI sends them.
 */
export function formatOpenAIErrorBody(error: ClientError): string {
  return JSON.stringify({
    error: {
      message: error.message,
      type:
        error.type ?? (error.status >= 400 && error.status < 500 ? 'invalid_request_error' : 'server_error'),
      param: error.param ?? null,
      code: error.code ?? null,
    },
  });
}

/** The OpenAI `usage` object for a {@link Usage}. */
export function toOpenAIUsage(usage: Usage): Record<string, unknown> {
  const input = usage.inputTokens;
  const output = usage.outputTokens;
  return {
    prompt_tokens: input.total,
    completion_tokens: output.total,
    total_tokens: input.total + output.total,
    prompt_tokens_details: { cached_tokens: input.cacheRead, audio_tokens: input.audio },
    completion_tokens_details: { reasoning_tokens: output.reasoning, audio_tokens: output.audio },
  };
}

/**
 * The final usage-only chunk (`"choices": []`) OpenAI sends when `stream_options.include_usage`
 * is set, as an SSE event. The gateway writes it itself when the upstream sent no usage.
 */
export function formatOpenAIUsageChunk(usage: Usage, meta: ResponseMeta): string {
  return `data: ${JSON.stringify({
    id: meta.id,
    object: 'chat.completion.chunk',
    created: meta.created,
    model: meta.model,
    choices: [],
    usage: toOpenAIUsage(usage),
  })}\n\n`;
}

/** The OpenAI `finish_reason` for a unified reason (conversion path). */
export function toOpenAIFinishReason(reason: FinishReason): string {
  switch (reason) {
    case 'length':
      return 'length';
    case 'content-filter':
      return 'content_filter';
    case 'tool-calls':
      return 'tool_calls';
    default:
      return 'stop';
  }
}

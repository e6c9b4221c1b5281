import type { ClientError, ProtocolCodec, ResponseMeta } from '../../spec/protocol-codec.js';
import type { Usage } from '../../spec/usage.js';
import { SSE_DONE } from '../../sse/sse-writer.js';
import { formatOpenAIErrorBody } from './openai-chat-wire.js';

/** A codec of the OpenAI chunk-stream family, with its synthetic usage event. */
export type OpenAIChunkCodec = ProtocolCodec & { formatUsageEvent(usage: Usage, meta: ResponseMeta): string };

/**
 * Completes the codec of an OpenAI chunk-stream protocol (chat completions, legacy completions)
 * with what they share: OpenAI error bodies, the error event `data: {"error":…}` and `[DONE]`.
 */
export function defineOpenAIChunkCodec(
  codec: Omit<OpenAIChunkCodec, 'formatError' | 'formatStreamError' | 'streamEndMarker'>,
): OpenAIChunkCodec {
  return {
    ...codec,
    formatError: (error: ClientError) => formatOpenAIErrorBody(error),
    formatStreamError: (error: ClientError) => `data: ${formatOpenAIErrorBody(error)}\n\n`,
    streamEndMarker: SSE_DONE,
  };
}

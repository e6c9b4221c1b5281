import type { ClientRequest } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { UnifiedResponse } from '../../spec/unified-response.js';
import { toOpenAIUsage } from '../openai-chat/openai-chat-wire.js';
import { defineOpenAIChunkCodec, type OpenAIChunkCodec } from '../openai-chat/openai-chunk-codec.js';
import { readJsonObjectBody } from '../read-json-body.js';
import { hasZeroTokenLimit, withoutZeroTokenLimits } from '../zero-token-limits.js';
import { validateOpenAICompletionsRequest } from './openai-completions-schemas.js';
import { createOpenAICompletionsStreamWriter } from './openai-completions-stream-writer.js';
import {
  formatOpenAICompletionsUsageChunk,
  newCompletionId,
  TEXT_COMPLETION_OBJECT,
  toOpenAICompletionsFinishReason,
} from './openai-completions-wire.js';
import type { OpenAITextPromptInput } from './openai-text-input.js';

/**
 * Parses an OpenAI completions request (`POST /v1/completions`) into a {@link RelayCall}:
 * validates the fields the gateway reads, keeps the body opaque and the raw bytes for
 * byte-exact forwarding. The prompt input lists the prompt texts; token-array prompts are
 * counted by length (`tokenCount`).
 */
export function parseOpenAICompletionsRequest(
  request: ClientRequest,
): RelayCall & { readonly prompt: OpenAITextPromptInput } {
  const sent = readJsonObjectBody(request);
  // A zero token limit is dropped before forwarding (zero-token-limits.ts): the raw bytes then go.
  const dropZeros = hasZeroTokenLimit(sent);
  const body = dropZeros ? withoutZeroTokenLimits(sent) : sent;
  const fields = validateOpenAICompletionsRequest(body);
  return {
    protocol: 'openai-completions',
    model: fields.model,
    upstreamModel: fields.model,
    stream: fields.stream,
    includeUsage: fields.includeUsage,
    maxTokens: fields.maxTokens,
    body,
    rawBody: dropZeros ? undefined : request.rawBody,
    path: request.path,
    prompt: fields.prompt,
  };
}

/** A converted non-stream response as an OpenAI `text_completion` body. */
export function formatOpenAICompletionsResponse(response: UnifiedResponse, call: RelayCall): string {
  return JSON.stringify({
    id: response.id || newCompletionId(),
    object: TEXT_COMPLETION_OBJECT,
    created: response.created,
    model: response.model || call.model,
    choices: response.choices.map((choice) => ({
      text: choice.text,
      index: choice.index,
      logprobs: null,
      finish_reason: toOpenAICompletionsFinishReason(choice.finishReason),
    })),
    usage: response.usage === undefined ? undefined : toOpenAIUsage(response.usage),
  });
}

/** The codec for clients of `POST /v1/completions` (legacy text completions, FIM). */
export const openAICompletionsCodec: OpenAIChunkCodec = defineOpenAIChunkCodec({
  protocol: 'openai-completions',
  parseRequest: parseOpenAICompletionsRequest,
  toClientResponse: formatOpenAICompletionsResponse,
  toClientStream: createOpenAICompletionsStreamWriter,
  formatUsageEvent: formatOpenAICompletionsUsageChunk,
});

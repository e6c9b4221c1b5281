import type { ClientRequest } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { UnifiedResponse } from '../../spec/unified-response.js';
import { readJsonObjectBody } from '../read-json-body.js';
import { hasZeroTokenLimit, withoutZeroTokenLimits } from '../zero-token-limits.js';
import { openAIChatPromptInput } from './openai-chat-prompt.js';
import { validateOpenAIChatRequest } from './openai-chat-schemas.js';
import { createOpenAIChatStreamWriter } from './openai-chat-stream-writer.js';
import { formatOpenAIUsageChunk, toOpenAIFinishReason, toOpenAIUsage } from './openai-chat-wire.js';
import { defineOpenAIChunkCodec, type OpenAIChunkCodec } from './openai-chunk-codec.js';

/**
 * Parses an OpenAI chat completions request into a {@link RelayCall}: validates the fields the
 * gateway reads, keeps the body opaque and the raw bytes for byte-exact forwarding.
 */
export function parseOpenAIChatRequest(request: ClientRequest): RelayCall {
  const sent = readJsonObjectBody(request);
  // A zero token limit is dropped before forwarding (zero-token-limits.ts): the raw bytes then go.
  const dropZeros = hasZeroTokenLimit(sent);
  const body = dropZeros ? withoutZeroTokenLimits(sent) : sent;
  const fields = validateOpenAIChatRequest(body);
  return {
    protocol: 'openai-chat',
    model: fields.model,
    upstreamModel: fields.model,
    stream: fields.stream,
    includeUsage: fields.includeUsage,
    maxTokens: fields.maxTokens,
    body,
    rawBody: dropZeros ? undefined : request.rawBody,
    path: request.path,
    prompt: openAIChatPromptInput(body),
  };
}

/** A converted non-stream response as an OpenAI `chat.completion` body. */
export function formatOpenAIChatResponse(response: UnifiedResponse, call: RelayCall): string {
  return JSON.stringify({
    id: response.id || `chatcmpl-${crypto.randomUUID()}`,
    object: 'chat.completion',
    created: response.created,
    model: response.model || call.model,
    choices: response.choices.map((choice) => {
      const message: Record<string, unknown> = { role: 'assistant', content: choice.text };
      if (choice.reasoning !== undefined) message.reasoning_content = choice.reasoning;
      if (choice.toolCalls.length > 0) {
        message.tool_calls = choice.toolCalls.map((toolCall) => ({
          id: toolCall.id,
          type: 'function',
          function: { name: toolCall.name, arguments: toolCall.arguments },
        }));
      }
      return {
        index: choice.index,
        message,
        logprobs: null,
        finish_reason: toOpenAIFinishReason(choice.finishReason),
      };
    }),
    usage: response.usage === undefined ? undefined : toOpenAIUsage(response.usage),
  });
}

/** The codec for clients of `POST /v1/chat/completions`. */
export const openAIChatCodec: OpenAIChunkCodec = defineOpenAIChunkCodec({
  protocol: 'openai-chat',
  parseRequest: parseOpenAIChatRequest,
  toClientResponse: formatOpenAIChatResponse,
  toClientStream: createOpenAIChatStreamWriter,
  formatUsageEvent: formatOpenAIUsageChunk,
});

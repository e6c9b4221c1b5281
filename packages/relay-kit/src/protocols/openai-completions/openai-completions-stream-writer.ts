import type { ClientStreamOptions } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { StreamPart } from '../../spec/stream-part.js';
import type { Usage } from '../../spec/usage.js';
import { SSE_DONE } from '../../sse/sse-writer.js';
import { formatOpenAIErrorBody } from '../openai-chat/openai-chat-wire.js';
import {
  formatOpenAICompletionsUsageChunk,
  newCompletionId,
  TEXT_COMPLETION_OBJECT,
  toOpenAICompletionsFinishReason,
} from './openai-completions-wire.js';

const encoder = new TextEncoder();

/**
 * Writes {@link StreamPart}s as OpenAI `text_completion` chunks (conversion path): each text
 * delta becomes `choices[].text`, `finish` a chunk with empty text and its `finish_reason`, the
 * usage chunk follows when the client asked for it, then `[DONE]`. Completions have no place
 * for reasoning or tool calls, so those parts are not written. An `error` part is written as an
 * OpenAI error event and ends the stream without `[DONE]`.
 */
export function createOpenAICompletionsStreamWriter(
  call: RelayCall,
  options: ClientStreamOptions = {},
): TransformStream<StreamPart, Uint8Array> {
  let id = '';
  let model = call.model;
  let created = Math.floor(Date.now() / 1000);
  let usage: Usage | undefined;
  let failed = false;

  const chunk = (index: number, text: string, finishReason: string | null) => {
    if (id === '') id = newCompletionId();
    return encoder.encode(
      `data: ${JSON.stringify({
        id,
        object: TEXT_COMPLETION_OBJECT,
        created,
        model,
        choices: [{ text, index, logprobs: null, finish_reason: finishReason }],
      })}\n\n`,
    );
  };

  return new TransformStream<StreamPart, Uint8Array>({
    transform(part, controller) {
      if (failed) return;
      switch (part.type) {
        case 'message-start':
          if (part.id !== '') id = part.id;
          if (part.model !== '') model = part.model;
          if (part.created !== undefined) created = part.created;
          return;
        case 'text-delta':
          controller.enqueue(chunk(part.index, part.delta, null));
          return;
        case 'reasoning-delta':
        case 'tool-call-delta':
          return;
        case 'finish':
          controller.enqueue(chunk(part.index, '', toOpenAICompletionsFinishReason(part.reason)));
          return;
        case 'usage':
          usage = part.usage;
          return;
        case 'error':
          failed = true;
          controller.enqueue(
            encoder.encode(
              `data: ${formatOpenAIErrorBody({
                status: part.error.status || 500,
                message: part.error.message,
                type: part.error.type ?? 'upstream_error',
                code: part.error.upstreamCode ?? null,
                param: part.error.param ?? null,
              })}\n\n`,
            ),
          );
          return;
      }
    },
    flush(controller) {
      if (failed) return;
      const finalUsage = options.resolveUsage ? options.resolveUsage(usage) : usage;
      if (call.includeUsage && finalUsage !== undefined) {
        if (id === '') id = newCompletionId();
        controller.enqueue(
          encoder.encode(formatOpenAICompletionsUsageChunk(finalUsage, { id, model, created })),
        );
      }
      controller.enqueue(encoder.encode(SSE_DONE));
    },
  });
}

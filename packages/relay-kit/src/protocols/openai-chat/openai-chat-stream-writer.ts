import type { ClientStreamOptions } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { StreamPart } from '../../spec/stream-part.js';
import type { Usage } from '../../spec/usage.js';
import { SSE_DONE } from '../../sse/sse-writer.js';
import { formatOpenAIErrorBody, formatOpenAIUsageChunk, toOpenAIFinishReason } from './openai-chat-wire.js';

const encoder = new TextEncoder();

/**
 * Writes {@link StreamPart}s as OpenAI `chat.completion.chunk` events (conversion path): the first
 * delta of each choice carries `role: "assistant"`, `finish` becomes a `finish_reason` chunk, the
 * usage chunk follows when the client asked for it, then `[DONE]`. An `error` part is written as
 * an OpenAI error event and ends the stream without `[DONE]`.
 */
export function createOpenAIChatStreamWriter(
  call: RelayCall,
  options: ClientStreamOptions = {},
): TransformStream<StreamPart, Uint8Array> {
  let id = '';
  let model = call.model;
  let created = Math.floor(Date.now() / 1000);
  let usage: Usage | undefined;
  let failed = false;
  const startedChoices = new Set<number>();

  const chunk = (index: number, delta: Record<string, unknown>, finishReason: string | null = null) => {
    if (!startedChoices.has(index)) {
      startedChoices.add(index);
      delta = { role: 'assistant', ...delta };
    }
    if (id === '') id = `chatcmpl-${crypto.randomUUID()}`;
    return encoder.encode(
      `data: ${JSON.stringify({
        id,
        object: 'chat.completion.chunk',
        created,
        model,
        choices: [{ index, delta, logprobs: null, finish_reason: finishReason }],
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
          controller.enqueue(chunk(part.index, { content: part.delta }));
          return;
        case 'reasoning-delta':
          controller.enqueue(chunk(part.index, { reasoning_content: part.delta }));
          return;
        case 'tool-call-delta': {
          const toolCall: Record<string, unknown> = { index: part.toolCallIndex };
          if (part.id !== undefined) {
            toolCall.id = part.id;
            toolCall.type = 'function';
          }
          const fn: Record<string, unknown> = { arguments: part.argumentsDelta };
          if (part.name !== undefined) fn.name = part.name;
          toolCall.function = fn;
          controller.enqueue(chunk(part.index, { tool_calls: [toolCall] }));
          return;
        }
        case 'finish':
          controller.enqueue(chunk(part.index, {}, toOpenAIFinishReason(part.reason)));
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
        if (id === '') id = `chatcmpl-${crypto.randomUUID()}`;
        controller.enqueue(encoder.encode(formatOpenAIUsageChunk(finalUsage, { id, model, created })));
      }
      controller.enqueue(encoder.encode(SSE_DONE));
    },
  });
}

import type { ClientStreamOptions } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { formatOpenAIUsageChunk, toOpenAIFinishReason } from './openai-chat-wire.js';
import { createOpenAIChunkStreamWriter, type OpenAIChoicePart } from './openai-chunk-stream-writer.js';

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
  const startedChoices = new Set<number>();
  const choice = (index: number, delta: Record<string, unknown>, finishReason: string | null = null) => {
    if (!startedChoices.has(index)) {
      startedChoices.add(index);
      delta = { role: 'assistant', ...delta };
    }
    return { index, delta, logprobs: null, finish_reason: finishReason };
  };
  return createOpenAIChunkStreamWriter(call, options, {
    object: 'chat.completion.chunk',
    newId: () => `chatcmpl-${crypto.randomUUID()}`,
    formatUsageChunk: formatOpenAIUsageChunk,
    choice(part: OpenAIChoicePart) {
      switch (part.type) {
        case 'text-delta':
          return choice(part.index, { content: part.delta });
        case 'reasoning-delta':
          return choice(part.index, { reasoning_content: part.delta });
        case 'tool-call-delta': {
          const toolCall: Record<string, unknown> = { index: part.toolCallIndex };
          if (part.id !== undefined) {
            toolCall.id = part.id;
            toolCall.type = 'function';
          }
          const fn: Record<string, unknown> = { arguments: part.argumentsDelta };
          if (part.name !== undefined) fn.name = part.name;
          toolCall.function = fn;
          return choice(part.index, { tool_calls: [toolCall] });
        }
        case 'finish':
          return choice(part.index, {}, toOpenAIFinishReason(part.reason));
      }
    },
  });
}

import type { ClientStreamOptions } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { createOpenAIChunkStreamWriter } from '../openai-chat/openai-chunk-stream-writer.js';
import {
  formatOpenAICompletionsUsageChunk,
  newCompletionId,
  TEXT_COMPLETION_OBJECT,
  toOpenAICompletionsFinishReason,
} from './openai-completions-wire.js';

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
  return createOpenAIChunkStreamWriter(call, options, {
    object: TEXT_COMPLETION_OBJECT,
    newId: newCompletionId,
    formatUsageChunk: formatOpenAICompletionsUsageChunk,
    choice(part) {
      if (part.type === 'text-delta')
        return { text: part.delta, index: part.index, logprobs: null, finish_reason: null };
      if (part.type !== 'finish') return undefined;
      return {
        text: '',
        index: part.index,
        logprobs: null,
        finish_reason: toOpenAICompletionsFinishReason(part.reason),
      };
    },
  });
}

import type { RelayCall } from '../../spec/relay-call.js';
import type { SseEvent } from '../../spec/sse-event.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { malformedStreamEventError } from '../malformed-stream-event.js';
import type { AnthropicStreamEvent } from './anthropic-api.js';
import { anthropicStreamError } from './anthropic-error.js';
import { AnthropicStreamUsage } from './convert-anthropic-usage.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

/**
 * Turns Anthropic Messages stream events into {@link StreamPart}s, for clients of another
 * protocol: `message_start` → `message-start` (and usage), text / thinking / `input_json_delta`
 * deltas → text, reasoning and tool call deltas (each `tool_use` block is one tool call, numbered
 * in order), `message_delta` → `finish` and the merged usage, `error` → `error`. `ping`,
 * signatures and events that are not JSON are skipped. Works for any event source that yields
 * Anthropic payloads (SSE, or Bedrock's decoded event-stream).
 */
export function createAnthropicStreamTransformer(_call: RelayCall): TransformStream<SseEvent, StreamPart> {
  const usage = new AnthropicStreamUsage();
  const toolCallOfBlock = new Map<number, number>();
  let toolCalls = 0;
  return new TransformStream<SseEvent, StreamPart>({
    transform(event, controller) {
      if (event.event === 'ping' || event.data === '') return;
      let payload: AnthropicStreamEvent;
      try {
        payload = JSON.parse(event.data) as AnthropicStreamEvent;
      } catch {
        controller.enqueue({ type: 'error', error: malformedStreamEventError() });
        controller.terminate();
        return;
      }
      if (typeof payload !== 'object' || payload === null) return;
      const type = payload.type ?? event.event;
      const blockIndex = typeof payload.index === 'number' ? payload.index : 0;
      switch (type) {
        case 'message_start': {
          const message = payload.message ?? {};
          controller.enqueue({
            type: 'message-start',
            id: typeof message.id === 'string' ? message.id : '',
            model: typeof message.model === 'string' ? message.model : '',
          });
          usage.apply(message.usage, true);
          const current = usage.result();
          if (current !== undefined) controller.enqueue({ type: 'usage', usage: current });
          return;
        }
        case 'content_block_start': {
          const block = payload.content_block ?? {};
          if (block.type === 'text' && typeof block.text === 'string' && block.text !== '') {
            controller.enqueue({ type: 'text-delta', index: 0, delta: block.text });
          } else if (
            block.type === 'thinking' &&
            typeof block.thinking === 'string' &&
            block.thinking !== ''
          ) {
            controller.enqueue({ type: 'reasoning-delta', index: 0, delta: block.thinking });
          } else if (block.type === 'tool_use' || block.type === 'server_tool_use') {
            const toolCallIndex = toolCalls++;
            toolCallOfBlock.set(blockIndex, toolCallIndex);
            const input = block.input;
            const hasInput = typeof input === 'object' && input !== null && Object.keys(input).length > 0;
            controller.enqueue({
              type: 'tool-call-delta',
              index: 0,
              toolCallIndex,
              id: typeof block.id === 'string' ? block.id : undefined,
              name: typeof block.name === 'string' ? block.name : undefined,
              argumentsDelta: hasInput ? JSON.stringify(input) : '',
            });
          }
          return;
        }
        case 'content_block_delta': {
          const delta = payload.delta ?? {};
          if (delta.type === 'text_delta' && typeof delta.text === 'string' && delta.text !== '') {
            controller.enqueue({ type: 'text-delta', index: 0, delta: delta.text });
          } else if (
            delta.type === 'thinking_delta' &&
            typeof delta.thinking === 'string' &&
            delta.thinking !== ''
          ) {
            controller.enqueue({ type: 'reasoning-delta', index: 0, delta: delta.thinking });
          } else if (delta.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
            const toolCallIndex = toolCallOfBlock.get(blockIndex);
            if (toolCallIndex === undefined || delta.partial_json === '') return;
            controller.enqueue({
              type: 'tool-call-delta',
              index: 0,
              toolCallIndex,
              argumentsDelta: delta.partial_json,
            });
          }
          return;
        }
        case 'message_delta': {
          const raw = payload.delta?.stop_reason;
          const reason = mapAnthropicFinishReason(raw);
          if (reason !== undefined)
            controller.enqueue({ type: 'finish', index: 0, reason, rawReason: raw ?? undefined });
          usage.apply(payload.usage, false);
          const current = usage.result();
          if (current !== undefined) controller.enqueue({ type: 'usage', usage: current });
          return;
        }
        case 'error':
          controller.enqueue({ type: 'error', error: anthropicStreamError(event.data) });
          return;
        default:
          return;
      }
    },
  });
}

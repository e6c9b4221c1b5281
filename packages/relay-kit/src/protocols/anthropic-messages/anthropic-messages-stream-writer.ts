import type { FinishReason } from '../../spec/finish-reason.js';
import type { ClientStreamOptions } from '../../spec/protocol-codec.js';
import type { RelayCall } from '../../spec/relay-call.js';
import type { StreamPart } from '../../spec/stream-part.js';
import type { Usage } from '../../spec/usage.js';
import {
  formatAnthropicStreamError,
  newAnthropicMessageId,
  newAnthropicToolUseId,
  toAnthropicStopReason,
  toAnthropicUsage,
} from './anthropic-messages-wire.js';

const encoder = new TextEncoder();

type OpenBlock =
  | { readonly kind: 'thinking' }
  | { readonly kind: 'text' }
  | { readonly kind: 'tool'; readonly toolCallIndex: number };

/** One Anthropic SSE event: `event: <type>\ndata: <json>\n\n`. */
export function formatAnthropicEvent(type: string, data: Record<string, unknown>): string {
  return `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
}

/**
 * Writes {@link StreamPart}s as an Anthropic Messages stream (conversion path): `message_start`
 * before the first block, one content block per run of thinking, text or one tool call
 * (`content_block_start`, `thinking_delta` / `text_delta` / `input_json_delta` deltas,
 * `content_block_stop`), then `message_delta` with the stop reason and the final usage (after
 * `options.resolveUsage`) and `message_stop`. Only choice 0 is written (Anthropic has no `n`). An
 * `error` part becomes an `error` event and ends the stream.
 */
export function createAnthropicMessagesStreamWriter(
  call: RelayCall,
  options: ClientStreamOptions = {},
): TransformStream<StreamPart, Uint8Array> {
  let id = '';
  let model = call.model;
  let usage: Usage | undefined;
  let started = false;
  let failed = false;
  let block: OpenBlock | undefined;
  let blockIndex = -1;
  let sawToolCall = false;
  let finishReason: FinishReason | undefined;
  let rawFinishReason: string | undefined;

  const messageStart = () => {
    started = true;
    if (id === '') id = newAnthropicMessageId();
    return formatAnthropicEvent('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: toAnthropicUsage(usage),
      },
    });
  };

  return new TransformStream<StreamPart, Uint8Array>({
    transform(part, controller) {
      if (failed) return;
      let out = '';
      const start = () => {
        if (!started) out += messageStart();
      };
      const open = (next: OpenBlock, contentBlock: Record<string, unknown>) => {
        start();
        if (block !== undefined) out += formatAnthropicEvent('content_block_stop', { index: blockIndex });
        block = next;
        blockIndex++;
        out += formatAnthropicEvent('content_block_start', {
          index: blockIndex,
          content_block: contentBlock,
        });
      };
      const delta = (value: Record<string, unknown>) => {
        out += formatAnthropicEvent('content_block_delta', { index: blockIndex, delta: value });
      };

      switch (part.type) {
        case 'message-start':
          if (!started) {
            if (part.id !== '') id = part.id;
            if (part.model !== '') model = part.model;
          }
          return;
        case 'reasoning-delta':
          if (part.index !== 0 || part.delta === '') return;
          if (block?.kind !== 'thinking')
            open({ kind: 'thinking' }, { type: 'thinking', thinking: '', signature: '' });
          delta({ type: 'thinking_delta', thinking: part.delta });
          break;
        case 'text-delta':
          if (part.index !== 0 || part.delta === '') return;
          if (block?.kind !== 'text') open({ kind: 'text' }, { type: 'text', text: '' });
          delta({ type: 'text_delta', text: part.delta });
          break;
        case 'tool-call-delta':
          if (part.index !== 0) return;
          if (block?.kind !== 'tool' || block.toolCallIndex !== part.toolCallIndex) {
            sawToolCall = true;
            open(
              { kind: 'tool', toolCallIndex: part.toolCallIndex },
              { type: 'tool_use', id: part.id || newAnthropicToolUseId(), name: part.name ?? '', input: {} },
            );
          }
          if (part.argumentsDelta !== '')
            delta({ type: 'input_json_delta', partial_json: part.argumentsDelta });
          break;
        case 'finish':
          if (part.index === 0) {
            finishReason = part.reason;
            rawFinishReason = part.rawReason;
          }
          return;
        case 'usage':
          usage = part.usage;
          return;
        case 'error':
          failed = true;
          out += formatAnthropicStreamError({
            status: part.error.status >= 400 ? part.error.status : 500,
            message: part.error.message,
            type: part.error.type,
          });
          break;
      }
      if (out !== '') controller.enqueue(encoder.encode(out));
    },
    flush(controller) {
      if (failed) return;
      let out = '';
      if (!started) out += messageStart();
      if (block !== undefined) out += formatAnthropicEvent('content_block_stop', { index: blockIndex });
      const finalUsage = options.resolveUsage ? options.resolveUsage(usage) : usage;
      const reason = finishReason ?? (sawToolCall ? 'tool-calls' : 'stop');
      out += formatAnthropicEvent('message_delta', {
        delta: { stop_reason: toAnthropicStopReason(reason, rawFinishReason), stop_sequence: null },
        usage: toAnthropicUsage(finalUsage),
      });
      out += formatAnthropicEvent('message_stop', {});
      controller.enqueue(encoder.encode(out));
    },
  });
}

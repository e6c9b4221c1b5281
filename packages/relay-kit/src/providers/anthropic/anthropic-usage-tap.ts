import type { FinishReason } from '../../spec/finish-reason.js';
import type {
  PassthroughTap,
  PassthroughTapOptions,
  PassthroughTapResult,
} from '../../spec/passthrough-tap.js';
import type { UpstreamError } from '../../spec/upstream-error.js';
import { concatBytes, NO_BYTES } from '../../util/bytes.js';
import { GeneratedTextCollector } from '../../util/generated-text-collector.js';
import { DEFAULT_MAX_COLLECTED_CHARS } from '../openai/openai-usage-tap.js';
import type { AnthropicStreamEvent } from './anthropic-api.js';
import { anthropicStreamError } from './anthropic-error.js';
import { AnthropicStreamUsage } from './convert-anthropic-usage.js';
import { mapAnthropicFinishReason } from './map-anthropic-finish-reason.js';

/** Beyond this many characters in one unfinished line the tap stops parsing and only forwards. */
const MAX_LINE_CHARS = 16 * 1024 * 1024;
/** Events that carry nothing the tap needs: never parsed. */
const SKIPPED_EVENTS = new Set(['ping', 'content_block_stop']);
const encoder = new TextEncoder();

/**
 * The pass-through tap for Anthropic Messages streams (`event:` + `data:` lines). Every input
 * chunk is returned as is (the bytes are never altered); on the side the tap reads usage from
 * `message_start` (input, cache read, cache creation, output) and `message_delta` (output; input
 * and cache counts when positive), the stop reason, the first event time, `error` events, and
 * collects generated text, thinking, tool names and tool input for local counting. `sawDone` means
 * `message_stop` arrived; events whose JSON is broken are counted in `malformedEvents`.
 * `dropUsageOnlyChunk` does not apply (Anthropic has no usage-only event); `endOfStream`, when
 * set, is written after the upstream's last byte.
 */
export function createAnthropicUsageTap(options: PassthroughTapOptions = {}): PassthroughTap {
  const onMalformedEvent = options.onMalformedEvent;
  const collectText = options.collectText !== false;
  const endOfStream = options.endOfStream;
  const now = options.now ?? (() => performance.now());
  const generated = new GeneratedTextCollector(options.maxCollectedChars ?? DEFAULT_MAX_COLLECTED_CHARS);
  const usage = new AnthropicStreamUsage();
  const decoder = new TextDecoder();
  let partial = '';
  let parsing = true;
  let finished = false;
  let eventName: string | undefined;

  let finishReason: FinishReason | undefined;
  let rawFinishReason: string | undefined;
  let firstEventAt: number | undefined;
  let eventCount = 0;
  let sawDone = false;
  let streamError: UpstreamError | undefined;
  let responseId: string | undefined;
  let model: string | undefined;
  let malformedEvents = 0;

  const handlePayload = (name: string | undefined, data: string) => {
    eventCount++;
    if (firstEventAt === undefined) firstEventAt = now();
    if (name === 'message_stop') {
      sawDone = true;
      return;
    }
    if (name !== undefined && SKIPPED_EVENTS.has(name)) return;
    if (name === 'content_block_delta' && !collectText) return;
    let payload: AnthropicStreamEvent;
    try {
      payload = JSON.parse(data) as AnthropicStreamEvent;
    } catch {
      malformedEvents++;
      onMalformedEvent?.(data);
      return;
    }
    if (typeof payload !== 'object' || payload === null) {
      malformedEvents++;
      return;
    }
    switch (payload.type ?? name) {
      case 'message_start': {
        const message = payload.message ?? {};
        if (typeof message.id === 'string') responseId = message.id;
        if (typeof message.model === 'string') model = message.model;
        usage.apply(message.usage, true);
        return;
      }
      case 'content_block_start': {
        const block = payload.content_block;
        if (!collectText || block === undefined) return;
        if (block.type === 'tool_use' || block.type === 'server_tool_use')
          generated.toolCall(String(block.name ?? ''));
        else if (typeof block.text === 'string') generated.append(block.text);
        return;
      }
      case 'content_block_delta': {
        const delta = payload.delta ?? {};
        if (typeof delta.text === 'string') generated.append(delta.text);
        else if (typeof delta.thinking === 'string') generated.append(delta.thinking);
        else if (typeof delta.partial_json === 'string') generated.append(delta.partial_json);
        return;
      }
      case 'message_delta': {
        const raw = payload.delta?.stop_reason;
        if (typeof raw === 'string' && raw !== '') {
          rawFinishReason = raw;
          finishReason = mapAnthropicFinishReason(raw);
        }
        usage.apply(payload.usage, false);
        return;
      }
      case 'message_stop':
        sawDone = true;
        return;
      case 'error':
        streamError = anthropicStreamError(data);
        return;
      default:
        return;
    }
  };

  const handleLine = (line: string) => {
    const end = line.length > 0 && line.charCodeAt(line.length - 1) === 13 ? line.length - 1 : line.length;
    if (end === 0) {
      eventName = undefined;
      return;
    }
    if (line.startsWith('event:')) {
      eventName = line.slice(line.charCodeAt(6) === 32 ? 7 : 6, end);
    } else if (line.startsWith('data:')) {
      handlePayload(eventName, line.slice(line.charCodeAt(5) === 32 ? 6 : 5, end));
    }
  };

  const parseText = (text: string) => {
    let start = 0;
    let newline = text.indexOf('\n');
    while (newline !== -1) {
      const line =
        start === 0 && partial !== '' ? partial + text.slice(0, newline) : text.slice(start, newline);
      if (start === 0) partial = '';
      handleLine(line);
      start = newline + 1;
      newline = text.indexOf('\n', start);
    }
    partial = start === 0 ? partial + text : text.slice(start);
    if (partial.length > MAX_LINE_CHARS) {
      parsing = false;
      partial = '';
      malformedEvents++;
    }
  };

  const push = (chunk: Uint8Array): Uint8Array => {
    if (finished || chunk.length === 0 || !parsing) return chunk;
    parseText(decoder.decode(chunk, { stream: true }));
    return chunk;
  };

  const finish = (): Uint8Array => {
    if (finished) return NO_BYTES;
    finished = true;
    if (parsing) {
      const tail = partial + decoder.decode();
      partial = '';
      if (tail !== '') handleLine(tail);
    }
    const out: Uint8Array[] = [];
    if (endOfStream !== undefined) {
      const trailer = endOfStream(result());
      if (trailer !== undefined) out.push(typeof trailer === 'string' ? encoder.encode(trailer) : trailer);
    }
    return concatBytes(out);
  };

  const result = (): PassthroughTapResult => ({
    usage: usage.result(),
    finishReason,
    rawFinishReason,
    firstEventAt,
    eventCount,
    sawDone,
    droppedUsageChunk: false,
    error: streamError,
    responseId,
    model,
    generated: generated.result(),
    malformedEvents,
  });

  let streamCreated = false;
  return {
    push,
    finish,
    result,
    stream() {
      if (streamCreated) throw new Error('PassthroughTap.stream() may only be called once');
      streamCreated = true;
      return new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          const out = push(chunk);
          if (out.length > 0) controller.enqueue(out);
        },
        flush(controller) {
          const out = finish();
          if (out.length > 0) controller.enqueue(out);
        },
      });
    },
  };
}

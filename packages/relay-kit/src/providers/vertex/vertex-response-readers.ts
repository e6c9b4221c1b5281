import type { RelayCall } from '../../spec/relay-call.js';
import type { SseEvent } from '../../spec/sse-event.js';
import type { StreamPart } from '../../spec/stream-part.js';
import { createAnthropicStreamTransformer } from '../anthropic/anthropic-stream-transformer.js';
import { createGeminiStreamTransformer } from '../gemini/gemini-stream-transformer.js';

/**
 * True when an upstream stream event or body is Anthropic-shaped (Claude on Vertex: every event
 * and the message body carry a string `type`), false for Gemini (`candidates`, `usageMetadata`).
 */
export function isAnthropicShaped(value: unknown): boolean {
  return (
    typeof value === 'object' && value !== null && typeof (value as { type?: unknown }).type === 'string'
  );
}

function eventIsAnthropic(event: SseEvent): boolean {
  if (event.event !== undefined && event.event !== 'message') return true;
  try {
    return isAnthropicShaped(JSON.parse(event.data));
  } catch {
    return false;
  }
}

/**
 * Stream parts for a Vertex stream, whose format depends on the model (which only the request
 * knew): the first event decides between the Anthropic and the Gemini transformer, and every
 * event goes through the chosen one.
 */
export function createVertexStreamTransformer(call: RelayCall): TransformStream<SseEvent, StreamPart> {
  let writer: WritableStreamDefaultWriter<SseEvent> | undefined;
  let pump: Promise<void> | undefined;
  const start = (event: SseEvent, controller: TransformStreamDefaultController<StreamPart>) => {
    const inner = eventIsAnthropic(event)
      ? createAnthropicStreamTransformer(call)
      : createGeminiStreamTransformer(call);
    writer = inner.writable.getWriter();
    pump = (async () => {
      const reader = inner.readable.getReader();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        controller.enqueue(value);
      }
    })();
    return writer;
  };
  return new TransformStream<SseEvent, StreamPart>({
    async transform(event, controller) {
      await (writer ?? start(event, controller)).write(event);
    },
    async flush(controller) {
      // An empty stream still gets the Gemini transformer's "ended early" error.
      const active = writer ?? start({ data: '' }, controller);
      await active.close();
      await pump;
    },
  });
}

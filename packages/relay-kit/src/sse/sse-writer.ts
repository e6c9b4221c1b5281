import type { SseEvent } from '../spec/sse-event.js';

const encoder = new TextEncoder();
const LINE_BREAK = /\r\n|\r|\n/;

/** The OpenAI end-of-stream event. */
export const SSE_DONE = 'data: [DONE]\n\n';

/** {@link SSE_DONE} as bytes (shared, never mutate). */
export const SSE_DONE_BYTES: Uint8Array = encoder.encode(SSE_DONE);

/** An empty chunk (shared, never mutate). */
export const EMPTY_BYTES: Uint8Array = new Uint8Array(0);

/**
 * Serialises one data-only event: `data: <data>\n\n`. Data containing line breaks is split over
 * several `data:` lines, as the SSE format requires.
 */
export function formatSseData(data: string): string {
  if (data.indexOf('\n') === -1 && data.indexOf('\r') === -1) return `data: ${data}\n\n`;
  return formatSseEvent({ data });
}

/** Serialises `value` as JSON in one data-only event. */
export function formatSseJson(value: unknown): string {
  // JSON.stringify never emits raw line breaks, so no splitting is needed.
  return `data: ${JSON.stringify(value)}\n\n`;
}

/** Serialises a full event (`event:`, `id:`, then one `data:` line per line of data). */
export function formatSseEvent(event: SseEvent): string {
  let out = '';
  if (event.event !== undefined) out += `event: ${event.event}\n`;
  if (event.id !== undefined) out += `id: ${event.id}\n`;
  for (const line of event.data.split(LINE_BREAK)) out += `data: ${line}\n`;
  return `${out}\n`;
}

/** A comment line, e.g. a keep-alive ping (`: ping\n\n`); clients ignore it. */
export function formatSseComment(comment: string): string {
  return `: ${comment.replace(/\r\n|\r|\n/g, ' ')}\n\n`;
}

/** UTF-8 bytes of `text` (one shared encoder). */
export function encodeUtf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/** A `TransformStream` writing events (or preformatted SSE text) as UTF-8 bytes. */
export function createSseWriterStream(): TransformStream<SseEvent | string, Uint8Array> {
  return new TransformStream<SseEvent | string, Uint8Array>({
    transform(chunk, controller) {
      controller.enqueue(encoder.encode(typeof chunk === 'string' ? chunk : formatSseEvent(chunk)));
    },
  });
}

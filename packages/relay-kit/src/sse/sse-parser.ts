import { createParser, type ParseError } from 'eventsource-parser';
import type { SseEvent } from '../spec/sse-event.js';

/** Options of {@link createSseParser} and {@link createSseParserStream}. */
export interface SseParserOptions {
  /**
   * Maximum characters buffered for one unfinished line or event. Beyond it the parser fails
   * instead of growing without bound (new-api's scanner stops at 10 MB lines). Default 10 MiB.
   */
  readonly maxBufferSize?: number | undefined;
  /** Called for comment lines (`: keep-alive`), without the colon. */
  readonly onComment?: ((comment: string) => void) | undefined;
}

/** An incremental SSE parser: push bytes or text as they arrive, receive events through a callback. */
export interface SseParser {
  /** Feeds the next piece of the stream; it may end anywhere, even inside a UTF-8 sequence. */
  push(chunk: Uint8Array | string): void;
  /** Ends the stream: flushes the decoder and dispatches a final event not followed by a blank line. */
  end(): void;
}

/** Default for {@link SseParserOptions.maxBufferSize}. */
export const DEFAULT_SSE_MAX_BUFFER = 10 * 1024 * 1024;

/**
 * Creates an incremental SSE parser (spec-complete: LF, CR and CRLF line ends, multi-line data,
 * comments, `event:`/`id:` fields, a leading BOM). Wraps `eventsource-parser`; bytes are decoded
 * with one streaming `TextDecoder`, so split UTF-8 sequences are safe.
 *
 * `onError` receives buffer overflows; the parser is unusable afterwards.
 */
export function createSseParser(
  onEvent: (event: SseEvent) => void,
  options: SseParserOptions & { onError?: (error: Error) => void } = {},
): SseParser {
  const decoder = new TextDecoder();
  const onError = options.onError;
  let failed = false;
  const parser = createParser({
    onEvent,
    onComment: options.onComment,
    maxBufferSize: options.maxBufferSize ?? DEFAULT_SSE_MAX_BUFFER,
    onError: (error: ParseError) => {
      // Unknown fields and invalid `retry:` values are legal to ignore; only overflow is fatal.
      if (error.type !== 'max-buffer-size-exceeded') return;
      failed = true;
      onError?.(error);
    },
  });
  return {
    push(chunk) {
      if (failed) return;
      const text = typeof chunk === 'string' ? chunk : decoder.decode(chunk, { stream: true });
      if (text.length === 0) return;
      parser.feed(text);
    },
    end() {
      if (failed) return;
      const tail = decoder.decode();
      if (tail.length > 0) parser.feed(tail);
      // An event not followed by a blank line is still delivered: upstreams that close the
      // connection right after the last `data:` line are common.
      parser.feed('\n\n');
    },
  };
}

/**
 * A `TransformStream` from upstream bytes (or text) to {@link SseEvent}s. The stream errors on
 * buffer overflow.
 */
export function createSseParserStream(
  options: SseParserOptions = {},
): TransformStream<Uint8Array | string, SseEvent> {
  let parser: SseParser | undefined;
  return new TransformStream<Uint8Array | string, SseEvent>({
    start(controller) {
      parser = createSseParser((event) => controller.enqueue(event), {
        ...options,
        onError: (error) => controller.error(error),
      });
    },
    transform(chunk) {
      parser?.push(chunk);
    },
    flush() {
      parser?.end();
    },
  });
}

/** Parses a complete SSE text (fixtures, tests, buffered bodies) into events. */
export function parseSseText(text: string | Uint8Array, options: SseParserOptions = {}): SseEvent[] {
  const events: SseEvent[] = [];
  const parser = createSseParser((event) => events.push(event), {
    ...options,
    onError: (error) => {
      throw error;
    },
  });
  parser.push(text);
  parser.end();
  return events;
}

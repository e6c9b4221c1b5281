import type { FinishReason } from './finish-reason.js';
import type { Protocol } from './protocol.js';
import type { UpstreamError } from './upstream-error.js';
import type { Usage } from './usage.js';

/** Options of a pass-through tap (see `ProviderAdapter.createPassthroughTap`). */
export interface PassthroughTapOptions {
  /** The native protocol of the stream (default: the adapter's first native protocol). */
  readonly protocol?: Protocol | undefined;
  /**
   * Drop the usage-only event (no choices, only `usage`) instead of forwarding it. Set it when the
   * adapter forced stream usage upstream that the client did not ask for
   * (`UpstreamRequest.streamUsageForced`). The only case where the tap alters bytes.
   */
  readonly dropUsageOnlyChunk?: boolean | undefined;
  /**
   * Collect generated text (content, reasoning, tool call names and arguments) for local token
   * counting when the upstream sends no usage. Default true.
   */
  readonly collectText?: boolean | undefined;
  /** Upper bound on collected characters (the rest is only counted). Default 262144. */
  readonly maxCollectedChars?: number | undefined;
  /**
   * When set, the upstream's end marker (OpenAI `data: [DONE]`) is withheld and, once the upstream
   * ends, whatever this returns is written instead. The server uses it to add a synthetic usage
   * chunk before `[DONE]` when the client asked for usage and the upstream sent none.
   */
  readonly endOfStream?: ((result: PassthroughTapResult) => string | Uint8Array | undefined) | undefined;
  /**
   * Called with the data of an event whose JSON cannot be read (also counted in
   * `malformedEvents`), during the `push` that completes it. The server ends the client's stream
   * there with the protocol's error event (see `cutAfterEvent`).
   */
  readonly onMalformedEvent?: ((data: string) => void) | undefined;
  /** Clock in milliseconds, for `firstEventAt`. Default `performance.now`. */
  readonly now?: (() => number) | undefined;
}

/** Text the upstream generated, collected for local token counting. */
export interface GeneratedText {
  /** Content, reasoning and tool call names/arguments, concatenated (capped). */
  readonly text: string;
  /** Total characters generated, including any beyond the collection cap. */
  readonly chars: number;
  /** Number of tool calls started. */
  readonly toolCallCount: number;
}

/** What a tap learned from the stream. Readable at any time (partial after a client abort). */
export interface PassthroughTapResult {
  /** The last usage the upstream reported, if any. */
  readonly usage: Usage | undefined;
  readonly finishReason: FinishReason | undefined;
  readonly rawFinishReason: string | undefined;
  /** `now()` when the first data event arrived (first-response time). */
  readonly firstEventAt: number | undefined;
  /** Number of data events seen, end marker included. */
  readonly eventCount: number;
  /** The upstream sent its end marker (`[DONE]`); false means the stream was cut short. */
  readonly sawDone: boolean;
  /** The usage-only event was dropped (see `dropUsageOnlyChunk`). */
  readonly droppedUsageChunk: boolean;
  /** An error event the upstream sent inside the stream. */
  readonly error: UpstreamError | undefined;
  /** Response id and model name the upstream reported. */
  readonly responseId: string | undefined;
  readonly model: string | undefined;
  readonly generated: GeneratedText;
  /** Events that looked relevant but were not valid JSON (tolerated, counted). */
  readonly malformedEvents: number;
}

/**
 * Forwards upstream bytes to the client unchanged while reading usage, finish reason and timing
 * on the side. Use `push`/`finish` directly in a custom pipe, or `stream()` for a
 * `TransformStream`. Chunks may be split anywhere (mid-line, mid-UTF-8 sequence).
 */
export interface PassthroughTap {
  /** Feeds upstream bytes; returns the bytes to forward now (often the same chunk, possibly empty). */
  push(chunk: Uint8Array): Uint8Array;
  /** Signals the end of the upstream; returns the bytes still to forward (possibly empty). */
  finish(): Uint8Array;
  /** The result so far. */
  result(): PassthroughTapResult;
  /** A `TransformStream` running `push` per chunk and `finish` on close. Call at most once. */
  stream(): TransformStream<Uint8Array, Uint8Array>;
}

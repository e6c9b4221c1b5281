import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { MockScenario } from './mock-scenario.ts';
import { pause, waitForDrain } from './response-writer.ts';

/** Role of an event in a stream; the scenario cut points (disconnect, error event) key off it. */
export const StreamEventKind = {
  /** Framing before or between content: role chunk, message_start, block start/stop, ping. */
  Framing: 0,
  /** One content chunk: a text, reasoning or tool-argument delta. */
  Content: 1,
  /** The first closing event: finish chunk, message_delta, the final Gemini chunk. */
  Closing: 2,
} as const;

/** One of the {@link StreamEventKind} values. */
export type StreamEventKind = (typeof StreamEventKind)[keyof typeof StreamEventKind];

/** One wire-ready event (its complete SSE text, separators included) and its role. */
export interface StreamEvent {
  readonly text: string;
  readonly kind: StreamEventKind;
}

/** What {@link writeEventStream} needs besides the events. */
export interface EventStreamOptions {
  readonly headers: OutgoingHttpHeaders;
  readonly scenario: MockScenario;
  /** The protocol's malformed event, sent once after the first content chunk for `bad-json-event`. */
  readonly malformedEvent: string;
  /** The protocol's in-stream error event, for `error-event-after-<n>`. */
  readonly errorEvent: string;
  /** Text written after the last event (the `]` of a Gemini JSON-array stream). */
  readonly trailer?: string;
  /** How event text becomes bytes: `utf8` (default), or `latin1` for binary frames held as strings. */
  readonly encoding?: 'utf8' | 'latin1';
}

const flushThreshold = 16_384;

/**
 * Writes a stream of events, applying the scenario: first-byte delay, pacing between events,
 * one malformed event, an in-stream error or a socket cut after n content chunks. Unpaced
 * streams are batched into few large writes; the socket's back-pressure is respected.
 */
export async function writeEventStream(
  response: ServerResponse,
  events: Iterable<StreamEvent>,
  options: EventStreamOptions,
): Promise<void> {
  const { scenario } = options;
  const encoding = options.encoding ?? 'utf8';
  if (scenario.slowFirstByteMs > 0 && !(await pause(response, scenario.slowFirstByteMs))) return;
  if (response.destroyed) return;
  response.writeHead(200, options.headers);
  const paced = scenario.slowStreamMs > 0;
  const cutAfter = scenario.disconnectAfter ?? scenario.errorEventAfter;
  let malformedPending = scenario.badJsonEvent;
  let contentCount = 0;
  let first = true;
  let pending = '';
  for (const event of events) {
    if (!first && paced && !(await pause(response, scenario.slowStreamMs))) return;
    first = false;
    if (cutAfter !== undefined && event.kind !== StreamEventKind.Framing) {
      if (event.kind === StreamEventKind.Closing || contentCount >= cutAfter) {
        const errorEvent = scenario.disconnectAfter === undefined ? options.errorEvent : undefined;
        cutStream(response, pending, errorEvent, encoding);
        return;
      }
    }
    pending += event.text;
    if (event.kind === StreamEventKind.Content) {
      contentCount++;
      if (malformedPending) {
        pending += options.malformedEvent;
        malformedPending = false;
      }
    }
    if (paced || pending.length >= flushThreshold) {
      if (!(await write(response, pending, encoding))) return;
      pending = '';
    }
  }
  if (options.trailer) pending += options.trailer;
  if (!response.destroyed) response.end(pending, encoding);
}

/** Writes and, when the socket buffer is full, waits for it to drain. */
async function write(response: ServerResponse, text: string, encoding: BufferEncoding): Promise<boolean> {
  if (response.destroyed) return false;
  if (response.write(text, encoding)) return true;
  return waitForDrain(response);
}

/**
 * Ends the stream early: with an error event and a clean end, or (no error event) by closing
 * the socket once what was already written has been flushed, so the client sees the content
 * chunks and then an abrupt close without the terminating chunk (and no `[DONE]`).
 */
function cutStream(
  response: ServerResponse,
  pending: string,
  errorEvent: string | undefined,
  encoding: BufferEncoding,
): void {
  if (errorEvent !== undefined) {
    response.end(pending + errorEvent, encoding);
    return;
  }
  if (pending !== '') response.write(pending, encoding);
  const socket = response.socket;
  if (!socket) return;
  socket.once('finish', () => socket.destroy());
  socket.end();
}

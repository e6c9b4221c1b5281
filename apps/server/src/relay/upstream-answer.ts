/// <reference path="./undici-internals.d.ts" />
import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { type Dispatcher, errors } from 'undici';
import { headerNameToString } from 'undici/lib/core/util.js';
import { type AbortSource, offAbort, onAbort } from './relay-abort.ts';
import type { DeadlineKind, UpstreamDeadlines, WatchedCall } from './upstream-deadlines.ts';

/**
 * An upstream answer: its body read whole (`text`, and `bytes`, what the upstream sent, kept to be
 * passed on as they came) or as a stream (`body`), never both.
 */
export type UpstreamAnswer =
  | { statusCode: number; headers: IncomingHttpHeaders; text: string; bytes: Buffer; body: null }
  | { statusCode: number; headers: IncomingHttpHeaders; text: null; bytes: null; body: Readable };

/** Whether an answer with this status and these headers is read whole before it is handed over. */
export type BufferWhen = (statusCode: number, headers: IncomingHttpHeaders) => boolean;

/** The upstream connection failed after the answer's headers, before its whole body arrived. */
export class UpstreamBodyCut extends Error {
  override name = 'UpstreamBodyCut';

  constructor(
    readonly statusCode: number,
    cause: Error,
  ) {
    super(`upstream body cut short: ${cause.message}`, { cause });
  }
}

/** Error bodies are read up to this size; the rest is received and dropped. */
export const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Reads a streamed body to its end as UTF-8 text, keeping at most `limit` bytes of it. */
export async function readBodyText(body: Readable, limit = Number.POSITIVE_INFINITY): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    if (size < limit) {
      chunks.push(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
  }
  const whole = Buffer.concat(chunks);
  return (whole.length > limit ? whole.subarray(0, limit) : whole).toString('utf8');
}

/**
 * The header list undici hands a handler (name, value, name, value, … as bytes) as an object:
 * names in lower case, values read as Latin-1 (as HTTP/1.1 defines them), a repeated header as
 * an array of its values in order; what undici's own `parseHeaders` makes for its newer handler
 * callbacks. A header named `__proto__` is an own property, never the object's prototype. Names
 * go through undici's `headerNameToString`, which finds a well-known name's lower-case string by
 * its bytes without making one (undici-internals.d.ts).
 */
export function headersOf(raw: ReadonlyArray<Buffer | string>): IncomingHttpHeaders {
  const headers: Record<string, string | string[]> = {};
  for (let index = 0; index + 1 < raw.length; index += 2) {
    const name = headerNameToString(raw[index]!);
    const value = raw[index + 1]!.toString('latin1');
    const existing = Object.hasOwn(headers, name) ? headers[name] : undefined;
    if (existing === undefined) {
      if (name === '__proto__') {
        Object.defineProperty(headers, name, { value, enumerable: true, configurable: true, writable: true });
      } else headers[name] = value;
    } else if (typeof existing === 'string') headers[name] = [existing, value];
    else existing.push(value);
  }
  return headers;
}

/**
 * An undici dispatch handler for one upstream request of a relay call that expects a whole
 * answer (a non-stream call). An answer `bufferWhen` accepts (2xx JSON) and an error answer
 * (≥ 300, its first 64 KB) are collected into one string and resolved when complete, with no
 * stream, stream consumer or async resource per call (undici's `request()` makes all three).
 * Anything else (an event stream or binary answer after all) resolves at its headers with a
 * readable body fed with backpressure, as `request()` would give it. The call's abort cancels the
 * request at any point; a failure before the answer is resolved rejects, one after it destroys the
 * body. With `deadlines`, the first-byte and idle timeouts are kept there (undici's own are off):
 * one that runs out cancels the request with undici's own timeout error.
 *
 * It implements undici's first handler interface (`onConnect`, `onHeaders`, `onData`,
 * `onComplete`, `onError`), which undici calls directly: a handler with the newer callbacks is
 * wrapped per request in an adapter and a controller, and its headers and trailers parsed into
 * objects on the way (ADR-38).
 */
export class UpstreamAnswerHandler implements Dispatcher.DispatchHandler, WatchedCall {
  private abortRequest: ((reason: Error) => void) | null = null;
  private resumeRequest: (() => void) | null = null;
  private chunks: Buffer[] | null = null;
  private size = 0;
  private limit = Number.POSITIVE_INFINITY;
  private body: Readable | null = null;
  private statusCode = 0;
  private headers: IncomingHttpHeaders = {};
  private settled = false;
  private readonly onAbortListener = () => this.abort();
  deadline = 0;
  answering = false;
  previousLinked: WatchedCall | null = null;
  nextLinked: WatchedCall | null = null;

  constructor(
    private readonly signal: AbortSource,
    private readonly bufferWhen: BufferWhen,
    private readonly resolve: (answer: UpstreamAnswer) => void,
    private readonly reject: (error: Error) => void,
    private readonly deadlines: UpstreamDeadlines | null = null,
    private readonly firstByteMs = 0,
    private readonly idleMs = 0,
  ) {
    if (!signal.aborted) onAbort(signal, this.onAbortListener);
  }

  expire(kind: DeadlineKind): void {
    this.abortRequest?.(
      kind === 'first-byte' ? new errors.HeadersTimeoutError() : new errors.BodyTimeoutError(),
    );
  }

  private abort(): void {
    this.abortRequest?.(new errors.RequestAbortedError());
  }

  private stopListening(): void {
    offAbort(this.signal, this.onAbortListener);
    this.deadlines?.forget(this);
  }

  onConnect(abort: (reason?: Error) => void): void {
    this.abortRequest = abort;
    if (this.signal.aborted) abort(new errors.RequestAbortedError());
    else this.deadlines?.watch(this, this.firstByteMs);
  }

  onHeaders(statusCode: number, rawHeaders: Buffer[], resume: () => void): boolean {
    if (statusCode < 200) return true;
    const headers = headersOf(rawHeaders);
    this.statusCode = statusCode;
    this.headers = headers;
    const deadlines = this.deadlines;
    if (deadlines !== null) {
      this.answering = true;
      deadlines.touch(this, this.idleMs);
    }
    if (statusCode >= 300 || this.bufferWhen(statusCode, headers)) {
      this.chunks = [];
      if (statusCode >= 300) this.limit = MAX_ERROR_BODY_BYTES;
      return true;
    }
    this.resumeRequest = resume;
    const body = new Readable({
      read: () => {
        // Silence while the reader is behind is not the upstream's: the idle time starts over.
        this.deadlines?.touch(this, this.idleMs);
        this.resumeRequest?.();
      },
      destroy: (error, callback) => {
        if (!this.settled) this.abortRequest?.(error ?? new errors.RequestAbortedError());
        callback(error);
      },
    });
    this.body = body;
    this.resolve({ statusCode, headers, text: null, bytes: null, body });
    return true;
  }

  onData(chunk: Buffer): boolean {
    this.deadlines?.touch(this, this.idleMs);
    if (this.chunks !== null) {
      if (this.size < this.limit) this.chunks.push(chunk);
      this.size += chunk.length;
      return true;
    }
    // false pauses the request until the body's reader asks for more (`read` resumes it).
    return this.body === null || this.body.push(chunk);
  }

  onComplete(): void {
    this.settled = true;
    this.stopListening();
    if (this.chunks !== null) {
      const chunks = this.chunks;
      // One chunk (the usual small answer) is read as it is: no copy.
      const whole = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
      const bytes = whole.length > this.limit ? whole.subarray(0, this.limit) : whole;
      this.resolve({
        statusCode: this.statusCode,
        headers: this.headers,
        text: bytes.toString('utf8'),
        bytes,
        body: null,
      });
      this.chunks = null;
      return;
    }
    this.body?.push(null);
  }

  onError(error: Error): void {
    const wasSettled = this.settled;
    this.settled = true;
    this.stopListening();
    if (this.body !== null) {
      if (!wasSettled) this.body.destroy(error);
      return;
    }
    // Cut after the headers: the caller tells an answer cut short from an upstream not reached.
    const cut = this.chunks !== null;
    this.chunks = null;
    this.reject(cut ? new UpstreamBodyCut(this.statusCode, error) : error);
  }
}

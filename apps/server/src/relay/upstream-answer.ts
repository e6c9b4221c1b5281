import type { IncomingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { type Dispatcher, errors } from 'undici';
import { type AbortSource, offAbort, onAbort } from './relay-abort.ts';

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

/** Reads a streamed body to its end as UTF-8 text. */
export async function readBodyText(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * An undici dispatch handler for one upstream request of a relay call. An answer `bufferWhen`
 * accepts (a non-stream call's 2xx JSON) and an error answer (≥ 300, its first 64 KB) are
 * collected into one string and resolved when complete, with no stream, stream consumer or async
 * resource per call (undici's `request()` makes all three). Anything else (a stream call's answer,
 * an event stream or binary answer after all) resolves at its headers with a readable body fed
 * with backpressure, as `request()` would give it. The call's abort cancels the
 * request at any point; a failure before the answer is resolved rejects, one after it destroys the
 * body. The first-byte and idle timeouts are undici's own (the request's options).
 *
 * It implements undici's handler interface (`onRequestStart`, `onResponseStart`,
 * `onResponseData`, `onResponseEnd`, `onResponseError`): the controller it is given pauses,
 * resumes and aborts the request.
 */
export class UpstreamAnswerHandler implements Dispatcher.DispatchHandler {
  private controller: Dispatcher.DispatchController | null = null;
  private chunks: Buffer[] | null = null;
  private size = 0;
  private limit = Number.POSITIVE_INFINITY;
  private body: Readable | null = null;
  private statusCode = 0;
  private headers: IncomingHttpHeaders = {};
  private settled = false;
  private readonly onAbortListener = () => this.controller?.abort(new errors.RequestAbortedError());

  constructor(
    private readonly signal: AbortSource,
    private readonly bufferWhen: BufferWhen,
    private readonly resolve: (answer: UpstreamAnswer) => void,
    private readonly reject: (error: Error) => void,
  ) {
    if (!signal.aborted) onAbort(signal, this.onAbortListener);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.signal.aborted) controller.abort(new errors.RequestAbortedError());
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
  ): void {
    if (statusCode < 200) return;
    this.statusCode = statusCode;
    this.headers = headers;
    if (statusCode >= 300 || this.bufferWhen(statusCode, headers)) {
      this.chunks = [];
      if (statusCode >= 300) this.limit = MAX_ERROR_BODY_BYTES;
      return;
    }
    const body = new Readable({
      // undici's idle timer does not run while the request is paused for a slow reader.
      read: () => controller.resume(),
      destroy: (error, callback) => {
        if (!this.settled) controller.abort(error ?? new errors.RequestAbortedError());
        callback(error);
      },
    });
    this.body = body;
    this.resolve({ statusCode, headers, text: null, bytes: null, body });
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.chunks !== null) {
      if (this.size < this.limit) this.chunks.push(chunk);
      this.size += chunk.length;
      return;
    }
    // A full body pauses the request until its reader asks for more (`read` resumes it).
    if (this.body !== null && !this.body.push(chunk)) controller.pause();
  }

  onResponseEnd(): void {
    this.settled = true;
    offAbort(this.signal, this.onAbortListener);
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

  onResponseError(_controller: Dispatcher.DispatchController, error: Error): void {
    const wasSettled = this.settled;
    this.settled = true;
    offAbort(this.signal, this.onAbortListener);
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

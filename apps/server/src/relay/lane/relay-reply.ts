import type { ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { ADDED_TIME_HEADER, formatAddedMs } from '../../observability/added-time.ts';
import type { RelayAbort } from '../relay-abort.ts';
import type { RelayRequest } from './relay-request.ts';

/**
 * A relay reply, as the relay lane answers every relay route: what the stages, the session guard
 * and the error writer use of a reply (the names Fastify's reply has), with the same effects
 * (status on the raw response, `content-length`, default content types, JSON for objects), written
 * straight to Node's response; a sender that writes a body as it comes takes the response over. A route that does not wait for an upstream gets
 * `X-Switchyard-Added-Ms` (its whole handling time) on what it sends; one that does sets it itself.
 */
export class RelayReply {
  sent = false;
  /** The call to abort when the client leaves before the answer was written (the lane's 'close' listener does). */
  abortOnClose: RelayAbort | null = null;
  private readonly log: FastifyBaseLogger;
  private readonly stampsAddedTime: boolean;
  /**
   * Headers set before the answer, as [name, value, name, value, …]: a whole answer goes out with
   * one `writeHead` of this list (no header map on the response, no per-header `setHeader`); a
   * stream gets them on the response before it is piped.
   */
  private readonly headers: string[] = [];

  constructor(
    readonly raw: ServerResponse,
    private readonly request: RelayRequest,
    private readonly startedAt: number,
  ) {
    this.log = request.log;
    this.stampsAddedTime = !request.routeOptions.config.relay;
  }

  get elapsedTime(): number {
    return performance.now() - this.startedAt;
  }

  code(status: number): this {
    this.raw.statusCode = status;
    return this;
  }

  /**
   * Sets a header (replacing one of the same name, in any case). Once the answer is sent or the
   * head written (`takeOver`) nothing more can go in it: the header is dropped with a warning.
   */
  header(name: string, value: string): this {
    if (this.sent) {
      this.log.warn({ header: name }, 'header set after the response head was written');
      return this;
    }
    const at = this.indexOf(name);
    if (at === -1) this.headers.push(name, value);
    else this.headers[at + 1] = value;
    return this;
  }

  type(contentType: string): this {
    return this.header('content-type', contentType);
  }

  /** Expires a cookie, with the attributes @fastify/cookie's `clearCookie` writes. */
  clearCookie(name: string, options: { path?: string } = {}): this {
    const attributes = { sameSite: 'lax' as const, path: '/', ...options, expires: new Date(0), maxAge: 0 };
    return this.header('set-cookie', this.request.server.serializeCookie(name, '', attributes));
  }

  hasHeader(name: string): boolean {
    return this.indexOf(name) !== -1 || this.raw.hasHeader(name);
  }

  private indexOf(name: string): number {
    const headers = this.headers;
    for (let index = 0; index < headers.length; index += 2) {
      const own = headers[index]!;
      if (own === name || (own.length === name.length && own.toLowerCase() === name.toLowerCase()))
        return index;
    }
    return -1;
  }

  send(payload?: unknown): this {
    if (this.sent) {
      this.log.warn('reply was already sent');
      return this;
    }
    if (this.stampsAddedTime && !this.hasHeader(ADDED_TIME_HEADER)) {
      this.header(ADDED_TIME_HEADER, formatAddedMs(this.elapsedTime));
    }
    this.sent = true;
    let body: string | Buffer;
    let defaultType: string;
    if (payload === undefined || payload === null) {
      body = '';
      defaultType = '';
    } else if (typeof payload === 'string') {
      body = payload;
      defaultType = 'text/plain; charset=utf-8';
    } else if (Buffer.isBuffer(payload)) {
      body = payload;
      defaultType = 'application/octet-stream';
    } else {
      body = JSON.stringify(payload);
      defaultType = 'application/json; charset=utf-8';
    }
    const headers = this.headers;
    if (defaultType !== '' && !this.hasHeader('content-type')) headers.push('content-type', defaultType);
    if (!this.hasHeader('content-length')) {
      headers.push(
        'content-length',
        String(typeof body === 'string' ? Buffer.byteLength(body) : body.length),
      );
    }
    const res = this.raw;
    res.writeHead(res.statusCode, headers);
    res.end(body);
    return this;
  }

  /**
   * Hands the response to a sender that writes the body itself (`stages/event-stream-reply.ts`):
   * the headers set so far go on the response (out with its first bytes) and the reply counts as
   * sent.
   */
  takeOver(): ServerResponse {
    this.sent = true;
    const res = this.raw;
    // One `writeHead` of the list (no header map, no per-header `setHeader`); the head goes out
    // with the first bytes written.
    res.writeHead(res.statusCode, this.headers);
    this.headers.length = 0;
    return res;
  }
}

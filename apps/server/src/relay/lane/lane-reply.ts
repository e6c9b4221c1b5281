import type { ServerResponse } from 'node:http';
import { finished, type Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { RelayReply } from '../relay-exchange.ts';

const isReadable = (payload: unknown): payload is Readable =>
  payload !== null && typeof payload === 'object' && typeof (payload as Readable).pipe === 'function';

/**
 * The relay lane's reply: what the relay stages and the error writer use of Fastify's reply, and
 * with the same effects (status on the raw response, `content-length` for bodies sent whole,
 * default content types, JSON for objects, streams piped with the source destroyed when the
 * client goes away), written straight to Node's response.
 */
export class LaneReply implements RelayReply {
  sent = false;

  constructor(
    readonly raw: ServerResponse,
    private readonly startedAt: number,
    private readonly log: FastifyBaseLogger,
    /** Answers an error the usual way (a stream that fails before its first byte). */
    private readonly fail: (error: unknown) => void,
  ) {}

  get elapsedTime(): number {
    return performance.now() - this.startedAt;
  }

  code(status: number): this {
    this.raw.statusCode = status;
    return this;
  }

  header(name: string, value: string): this {
    this.raw.setHeader(name, value);
    return this;
  }

  type(contentType: string): this {
    return this.header('content-type', contentType);
  }

  hasHeader(name: string): boolean {
    return this.raw.hasHeader(name);
  }

  send(payload?: unknown): this {
    if (this.sent) {
      this.log.warn('reply was already sent');
      return this;
    }
    this.sent = true;
    if (isReadable(payload)) {
      this.sendStream(payload);
      return this;
    }
    const res = this.raw;
    let body: string | Buffer;
    if (payload === undefined || payload === null) body = '';
    else if (typeof payload === 'string') {
      if (!res.hasHeader('content-type')) res.setHeader('content-type', 'text/plain; charset=utf-8');
      body = payload;
    } else if (Buffer.isBuffer(payload)) {
      if (!res.hasHeader('content-type')) res.setHeader('content-type', 'application/octet-stream');
      body = payload;
    } else {
      if (!res.hasHeader('content-type')) res.setHeader('content-type', 'application/json; charset=utf-8');
      body = JSON.stringify(payload);
    }
    res.setHeader('content-length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    res.end(body);
    return this;
  }

  /** Pipes a body to the client; a client that leaves first destroys it, a failing one ends the response. */
  private sendStream(payload: Readable): void {
    const res = this.raw;
    let sourceOpen = true;
    finished(payload, { readable: true, writable: false }, (error) => {
      sourceOpen = false;
      if (error == null) return;
      if (res.headersSent) {
        this.log.warn({ err: error }, 'response stream failed');
        res.destroy();
      } else {
        this.sent = false;
        this.fail(error);
      }
    });
    finished(res, () => {
      if (sourceOpen) payload.destroy();
    });
    payload.pipe(res);
  }
}

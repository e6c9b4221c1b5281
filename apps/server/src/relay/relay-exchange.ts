import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RelayAbort } from './relay-abort.ts';

/**
 * What the relay stages and the error writer use of a request. Fastify's request satisfies it,
 * and so does the relay lane's own (relay/lane/lane-request.ts), which serves the hot relay
 * routes without Fastify's request and reply objects.
 */
export interface RelayRequest {
  readonly id: string;
  readonly ip: string;
  readonly url: string;
  readonly method: string;
  readonly headers: IncomingHttpHeaders;
  /** The raw body bytes (relay routes keep them for byte-exact forwarding). */
  readonly body: unknown;
  /** The query string as an object (Gemini's `key` parameter is read from it). */
  readonly query: unknown;
  readonly log: FastifyBaseLogger;
  readonly server: Pick<FastifyInstance, 'services' | 'log'>;
  /** The matched route's config: `codec` names a protocol that writes its own errors. */
  readonly routeOptions: { readonly config: unknown };
}

/** What the relay stages and the error writer use of a reply (Fastify's, or the relay lane's). */
export interface RelayReply {
  readonly raw: ServerResponse;
  /** Whether a response has been sent (or a stream handed over). */
  readonly sent: boolean;
  /** Milliseconds since the request arrived. */
  readonly elapsedTime: number;
  code(status: number): RelayReply;
  header(name: string, value: string): RelayReply;
  type(contentType: string): RelayReply;
  hasHeader(name: string): boolean;
  /** Sends a string, Buffer, readable stream, or an object as JSON. */
  send(payload?: unknown): RelayReply;
  /**
   * Present on a reply that watches its client's connection itself (the relay lane's): the call
   * sets its abort here, and a connection that closes before the answer was written aborts it.
   * Without it, the call listens for the raw response's 'close'.
   */
  abortOnClose?: RelayAbort | null;
  /**
   * Present on the relay lane's reply: hands the raw response to a sender that writes the body
   * itself, with the headers set so far on it. Fastify's reply is taken over with `hijack`
   * instead (stages/relay-response.ts).
   */
  takeOver?(): ServerResponse;
}

import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RelayRequest } from '../relay-exchange.ts';

/** The relay lane's request: what the relay stages and the error writer use of Fastify's request. */
export class LaneRequest implements RelayRequest {
  /** The raw body, once read (undefined for a request without one, as Fastify gives it). */
  body: Buffer | undefined = undefined;
  private parsedQuery: Record<string, unknown> | undefined;

  constructor(
    readonly raw: IncomingMessage,
    readonly id: string,
    readonly ip: string,
    readonly log: FastifyBaseLogger,
    readonly server: Pick<FastifyInstance, 'services' | 'log'>,
    readonly routeOptions: { readonly config: unknown },
  ) {}

  get url(): string {
    return this.raw.url ?? '/';
  }

  get method(): string {
    return this.raw.method ?? 'POST';
  }

  get headers(): IncomingHttpHeaders {
    return this.raw.headers;
  }

  /** The query string's parameters, parsed on first use. */
  get query(): Record<string, unknown> {
    if (this.parsedQuery === undefined) {
      const url = this.url;
      const start = url.indexOf('?');
      this.parsedQuery = start === -1 ? {} : { ...parseQuery(url.slice(start + 1)) };
    }
    return this.parsedQuery;
  }
}

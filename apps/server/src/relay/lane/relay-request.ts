import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { parse as parseQuery } from 'node:querystring';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { UserRow } from '../../db/repositories/user-repository.ts';

/** A relay route's config: `relay` when it waits for an upstream, `codec` when its protocol writes its own errors. */
export interface RelayRouteConfig {
  readonly relay: boolean;
  readonly codec?: unknown;
}

/** The app as a relay request sees it: its services, its logger, its cookie parser. */
export type RelayServer = Pick<FastifyInstance, 'services' | 'log' | 'parseCookie' | 'serializeCookie'>;

/**
 * A relay request, as the relay lane serves every relay route: what the stages, the session
 * guard and the error writer use of a request (the names Fastify's request has for the same
 * things), read from Node's request.
 */
export class RelayRequest {
  /** The raw body, once read (undefined for a request without one, as Fastify gives it). */
  body: Buffer | undefined = undefined;
  /** The session's user, once the playground's guard has checked it. */
  user: UserRow | null = null;
  private parsedQuery: Record<string, unknown> | undefined;
  private parsedCookies: Record<string, string | undefined> | undefined;

  constructor(
    readonly raw: IncomingMessage,
    readonly id: string,
    readonly ip: string,
    readonly log: FastifyBaseLogger,
    readonly server: RelayServer,
    readonly routeOptions: { readonly config: RelayRouteConfig },
    /** The route's `:name` and `*` parameters. */
    readonly params: Readonly<Record<string, string>>,
  ) {}

  get url(): string {
    return this.raw.url ?? '/';
  }

  get method(): string {
    return this.raw.method ?? 'GET';
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

  /** The request's cookies, parsed on first use with the app's cookie parser. */
  get cookies(): Record<string, string | undefined> {
    if (this.parsedCookies === undefined) {
      const header = this.raw.headers.cookie;
      this.parsedCookies = header ? this.server.parseCookie(header) : {};
    }
    return this.parsedCookies;
  }
}

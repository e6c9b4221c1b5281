import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { GatewayMetrics } from '../../observability/gateway-metrics.ts';
import { metricsOf } from '../../observability/gateway-metrics.ts';
import { metricFamilyOf } from '../../observability/request-metrics.ts';
import { sendError } from '../../plugins/error-handler.ts';
import { lazyChildLoggerFactory } from '../../plugins/lazy-request-logger.ts';
import { createRequestId } from '../../plugins/request-id.ts';
import { clientAddressOf } from './client-address.ts';
import { readBody } from './read-body.ts';
import { RelayReply } from './relay-reply.ts';
import { RelayRequest, type RelayRouteConfig } from './relay-request.ts';
import { RelayRouter } from './relay-router.ts';

/** A relay route's handler; a value it resolves to is sent when it did not send itself. */
export type RelayHandler = (request: RelayRequest, reply: RelayReply) => Promise<unknown>;

/** A check before the body is read (the playground's session); it throws to refuse. */
export type RelayGuard = (request: RelayRequest, reply: RelayReply) => Promise<void>;

/** Answers the errors of a route's own wire shape (the task routes'); false leaves one to `sendError`. */
export type OwnErrors = (error: unknown, reply: RelayReply) => boolean;

interface LaneRoute {
  handler: RelayHandler;
  guard: RelayGuard | undefined;
  ownErrors: OwnErrors | undefined;
  /** What the request's `routeOptions` answers, made once per route. */
  routeOptions: { readonly config: RelayRouteConfig };
}

/** Methods whose body is never read (as Fastify reads none for them). */
const BODYLESS = new Set(['GET', 'HEAD', 'TRACE']);

/** A request path without its query and one trailing slash (the router ignores trailing slashes). */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

/** Whether the request has a body to read: as Fastify decides it (no type and no length: none). */
function hasBody(raw: IncomingMessage): boolean {
  if (BODYLESS.has(raw.method ?? '')) return false;
  const { headers } = raw;
  if (headers['content-type'] !== undefined || headers['transfer-encoding'] !== undefined) return true;
  const length = headers['content-length'];
  return length !== undefined && length !== '0';
}

interface OpenLane {
  app: FastifyInstance;
  metrics: GatewayMetrics;
  bodyLimit: number;
  clientAddress: (request: IncomingMessage) => string;
  /** Whether the request log lines are on (level `info` or finer). */
  logRequests: boolean;
  /** The app's check of X-Forwarded-For from an untrusted address (warns, never refuses). */
  checkForwarded: (request: IncomingMessage) => void;
}

/**
 * The relay lane: the one front door of every relay route (ADR-44, docs/decisions), served
 * straight from Node's request and response. Every relay request passes here, and here only:
 * the request id and its X-Oneapi-Request-Id header, the client address under TRUSTED_PROXIES,
 * the route's guard, the relay body limit (any content type, kept as raw bytes), errors through
 * the app's `sendError`, the request counter and duration metric, the request log lines at
 * `info`. A request no relay route matches is Fastify's (the API, the console, static files,
 * observability, and every 404).
 */
export class RelayLane {
  private readonly router = new RelayRouter<LaneRoute>();
  private ready: OpenLane | null = null;

  /** Serves `path` for `methods` (a GET route answers HEAD too). */
  route(
    methods: readonly string[],
    path: string,
    handler: RelayHandler,
    options: { config: RelayRouteConfig; guard?: RelayGuard; ownErrors?: OwnErrors },
  ): void {
    this.router.add(methods, path, {
      handler,
      guard: options.guard,
      ownErrors: options.ownErrors,
      routeOptions: { config: options.config },
    });
  }

  /** Every `METHOD path` the lane serves (HEAD of GET routes included, as Fastify lists them). */
  routeKeys(): string[] {
    const keys = this.router.keys;
    const heads = keys.filter((key) => key.startsWith('GET ')).map((key) => `HEAD ${key.slice(4)}`);
    return [...keys, ...heads.filter((key) => !keys.includes(key))];
  }

  /** Starts serving once the app is ready; until then every request goes to Fastify. */
  open(app: FastifyInstance, checkForwarded: (request: IncomingMessage) => void = () => {}): void {
    const { config } = app.services;
    this.ready = {
      app,
      metrics: metricsOf(app.services),
      bodyLimit: config.relayBodyLimit,
      clientAddress: clientAddressOf(config.trustProxy),
      logRequests:
        (app.log as { isLevelEnabled?: (level: string) => boolean }).isLevelEnabled?.('info') ?? false,
      checkForwarded,
    };
  }

  /** Handles a request on the lane; false when no relay route matches it (Fastify takes it then). */
  serve(raw: IncomingMessage, res: ServerResponse): boolean {
    const ready = this.ready;
    if (ready === null) return false;
    let path = pathOf(raw.url ?? '/');
    if (path.includes('%')) {
      try {
        path = decodeURI(path);
      } catch {
        // Fastify's router answers a malformed URL (frameworkErrors).
        return false;
      }
    }
    const match = this.router.find(raw.method ?? 'GET', path);
    if (match === null) return false;
    try {
      this.handle(ready, match.route, match.params, raw, res);
    } catch (error) {
      // A fault of the lane itself must not take the process down: the client gets a 500.
      ready.app.log.error({ err: error }, 'relay lane failed');
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json; charset=utf-8' });
      res.end(
        JSON.stringify({ error: { message: '服务器内部错误，请联系管理员', type: 'switchyard_error' } }),
      );
    }
    return true;
  }

  private handle(
    ready: OpenLane,
    route: LaneRoute,
    params: Record<string, string>,
    raw: IncomingMessage,
    res: ServerResponse,
  ): void {
    const startedAt = performance.now();
    const { app } = ready;
    const id = createRequestId();
    const log = lazyChildLoggerFactory.call(app, app.log, { reqId: id }, {});
    const request = new RelayRequest(raw, id, ready.clientAddress(raw), log, app, route.routeOptions, params);
    const { ownErrors } = route;
    const fail = (error: unknown) => {
      if (ownErrors === undefined || reply.sent || !ownErrors(error, reply)) sendError(error, request, reply);
    };
    const reply = new RelayReply(res, request, startedAt);
    reply.header('X-Oneapi-Request-Id', id);
    ready.checkForwarded(raw);
    const logInfo = ready.logRequests;
    if (logInfo) {
      // The app's request serializer writes it (the URL with its credentials redacted).
      log.info({ req: request }, 'incoming request');
    }
    // 'close' comes once: `on` spares the `once` wrapper.
    res.on('close', () => {
      if (reply.abortOnClose !== null && !res.writableFinished) reply.abortOnClose.abort();
      const elapsed = reply.elapsedTime;
      ready.metrics.httpRequest(metricFamilyOf(request.url), request.method, res.statusCode, elapsed / 1000);
      if (logInfo)
        log.info({ res: { statusCode: res.statusCode }, responseTime: elapsed }, 'request completed');
    });
    if (route.guard === undefined) readAndRun(ready.bodyLimit, route, request, reply, fail);
    else
      route.guard(request, reply).then(() => readAndRun(ready.bodyLimit, route, request, reply, fail), fail);
  }
}

/** Reads the body (when the request has one) into the request, then runs the route's handler. */
function readAndRun(
  bodyLimit: number,
  route: LaneRoute,
  request: RelayRequest,
  reply: RelayReply,
  fail: (error: unknown) => void,
): void {
  if (!hasBody(request.raw)) {
    run(route, request, reply, fail);
    return;
  }
  readBody(request.raw, bodyLimit, (error, body) => {
    if (error !== null) {
      fail(error);
      return;
    }
    request.body = body;
    run(route, request, reply, fail);
  });
}

function run(
  route: LaneRoute,
  request: RelayRequest,
  reply: RelayReply,
  fail: (error: unknown) => void,
): void {
  route.handler(request, reply).then((result) => {
    // A value the handler resolves to is sent when it did not send itself.
    if (!reply.sent && result !== undefined && result !== reply) reply.send(result);
  }, fail);
}

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { GatewayMetrics } from '../../observability/gateway-metrics.ts';
import { metricsOf } from '../../observability/gateway-metrics.ts';
import { metricFamilyOf } from '../../observability/request-metrics.ts';
import { sendError } from '../../plugins/error-handler.ts';
import { lazyChildLoggerFactory } from '../../plugins/lazy-request-logger.ts';
import { createRequestId } from '../../plugins/request-id.ts';
import type { RelayReply, RelayRequest } from '../relay-exchange.ts';
import { clientAddressOf } from './client-address.ts';
import { LaneReply } from './lane-reply.ts';
import { LaneRequest } from './lane-request.ts';
import { readBody } from './read-body.ts';

/** A relay route's handler: the same function serves it on the lane and as a Fastify route. */
export type LaneHandler = (request: RelayRequest, reply: RelayReply) => Promise<unknown>;

/** A relay route's config, as Fastify's `routeOptions.config` gives it (the error writer reads `codec`). */
type LaneRouteConfig = { readonly relay: true; readonly codec?: unknown };

interface LaneRoute {
  handler: LaneHandler;
  /** What the request's `routeOptions` answers, made once per route. */
  routeOptions: { readonly config: LaneRouteConfig };
}

/** The content types relay clients send; anything else takes Fastify's path (and its 415). */
const LANE_CONTENT_TYPE = /^(?:application\/json|multipart\/form-data)\b/i;

/** A request path without its query and one trailing slash (the router ignores trailing slashes). */
function pathOf(url: string): string {
  const query = url.indexOf('?');
  const path = query === -1 ? url : url.slice(0, query);
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}

interface OpenLane {
  app: FastifyInstance;
  metrics: GatewayMetrics;
  bodyLimit: number;
  clientAddress: (request: IncomingMessage) => string;
  /** Whether Fastify's request log lines are on (level `info` or finer). */
  logRequests: boolean;
  /** The app's check of X-Forwarded-For from an untrusted address (warns, never refuses). */
  checkForwarded: (request: IncomingMessage) => void;
}

/**
 * The relay lane: the hot relay routes (POST, fixed paths, JSON or multipart bodies) served
 * straight from Node's request and response, before Fastify's router, request and reply objects
 * and hooks (ADR-27, docs/decisions). It does what the app's hooks and error handler do for
 * those routes — the request id and its X-Oneapi-Request-Id header, the client address under the
 * same TRUSTED_PROXIES, the relay body limit, errors through the same `sendError`, the request
 * counter and duration metric, Fastify's request log lines at `info` — and hands the request to
 * the same handler the Fastify route has. Everything else (other methods, paths with parameters,
 * other content types, `inject` in tests) goes through Fastify unchanged.
 */
export class RelayLane {
  private readonly routes = new Map<string, LaneRoute>();
  private ready: OpenLane | null = null;

  /**
   * Serves POST `path` on the lane (the handler stays registered as a Fastify route as well). A
   * path with parameters or a wildcard is left to Fastify's router alone.
   */
  route(path: string, handler: LaneHandler, config: LaneRouteConfig): void {
    if (path.includes(':') || path.includes('*')) return;
    this.routes.set(path, { handler, routeOptions: { config } });
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

  /** Handles a request on the lane; false when it is not the lane's (Fastify takes it then). */
  serve(raw: IncomingMessage, res: ServerResponse): boolean {
    const ready = this.ready;
    if (ready === null || raw.method !== 'POST') return false;
    const contentType = raw.headers['content-type'];
    if (contentType === undefined || !LANE_CONTENT_TYPE.test(contentType)) return false;
    const route = this.routes.get(pathOf(raw.url ?? '/'));
    if (route === undefined) return false;
    try {
      this.handle(ready, route, raw, res);
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

  private handle(ready: OpenLane, route: LaneRoute, raw: IncomingMessage, res: ServerResponse): void {
    const startedAt = performance.now();
    const { app } = ready;
    const id = createRequestId();
    const log = lazyChildLoggerFactory.call(app, app.log, { reqId: id }, {});
    const request = new LaneRequest(raw, id, ready.clientAddress(raw), log, app, route.routeOptions);
    const fail = (error: unknown) => sendError(error, request, reply);
    const reply = new LaneReply(res, startedAt, log, fail);
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
      ready.metrics.httpRequest(metricFamilyOf(request.url), 'POST', res.statusCode, elapsed / 1000);
      if (logInfo)
        log.info({ res: { statusCode: res.statusCode }, responseTime: elapsed }, 'request completed');
    });
    readBody(raw, ready.bodyLimit, (error, body) => {
      if (error !== null) {
        fail(error);
        return;
      }
      request.body = body;
      route.handler(request, reply).then((result) => {
        // An async Fastify handler's value is sent when the handler did not send itself.
        if (!reply.sent && result !== undefined && result !== reply) reply.send(result);
      }, fail);
    });
  }
}

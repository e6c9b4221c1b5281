import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '@switchyard/shared';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from './config/env.ts';
import { registerConsoleRoutes } from './console/console-routes.ts';
import { GatewayError } from './errors/gateway-error.ts';
import { observabilityRoutes } from './observability/observability-routes.ts';
import { isObservabilityPath } from './observability/request-metrics.ts';
import { installErrorHandler, sendError } from './plugins/error-handler.ts';
import { lazyChildLoggerFactory } from './plugins/lazy-request-logger.ts';
import { loggerOptions } from './plugins/log-serializers.ts';
import { createRequestId } from './plugins/request-id.ts';
import { routeFamilyOf } from './plugins/route-family.ts';
import { untrustedForwardWarning } from './plugins/untrusted-forward-warning.ts';
import { installValidation } from './plugins/validation.ts';
import { limitByIp } from './rate-limit/rate-limit-hooks.ts';
import { injectThrough } from './relay/lane/inject-through-lane.ts';
import { RelayLane } from './relay/lane/relay-lane.ts';
import { frontDoor, serverWithLane } from './relay/lane/server-with-lane.ts';
import { registerRelayRoutes } from './relay/relay-routes.ts';
import { composeServices } from './start/compose-services.ts';
import { createAppLifecycle } from './start/subsystems.ts';
import { registerTaskRelayRoutes } from './tasks/task-relay-routes.ts';

export interface BuildAppOptions {
  config: Config;
  /** Pino options, or false to silence logs (tests). */
  logger?: FastifyServerOptions['logger'];
}

function defaultWebDist(config: Config): string | null {
  const candidate =
    config.webDistDirectory ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');
  return existsSync(resolve(candidate, 'index.html')) ? candidate : null;
}

/** Builds the whole application: database, migrations, caches, plugins and routes. */
export async function buildApp({ config, logger }: BuildAppOptions): Promise<FastifyInstance> {
  // Every relay route is served by the relay lane, before Fastify (relay/lane/relay-lane.ts,
  // ADR-44); the server and `inject` share one front door.
  const lane = new RelayLane();
  let door: ReturnType<typeof frontDoor> | undefined;
  const app = Fastify({
    serverFactory: (handler, options) => {
      door = frontDoor(lane, handler);
      return serverWithLane(door, options);
    },
    logger: loggerOptions(config.logLevel, logger),
    genReqId: createRequestId,
    childLoggerFactory: lazyChildLoggerFactory,
    requestIdHeader: false,
    bodyLimit: config.apiBodyLimit,
    trustProxy: config.trustProxy,
    routerOptions: { ignoreTrailingSlash: true },
    // Malformed URLs (bad percent-escapes) get the same error shapes as every other failure.
    frameworkErrors: (error, request, reply) =>
      sendError(
        new GatewayError(ErrorCode.RequestInvalidParameter, `无效的请求地址: ${error.message}`, {
          status: 400,
        }),
        request,
        reply,
      ),
  });
  app.decorateRequest('user', null);

  if (config.unusedLegacyVariables.length > 0) {
    app.log.warn(`not used by Switchyard (new-api settings): ${config.unusedLegacyVariables.join(', ')}`);
  }
  // Each subsystem registers its own close with what it needs; shutdown follows those needs.
  const lifecycle = createAppLifecycle();
  try {
    app.decorate('services', await composeServices(config, lifecycle, app.log));
    // A need naming a subsystem that never registered fails the start, not the shutdown.
    lifecycle.closeOrder();
  } catch (error) {
    await lifecycle.close(app.log);
    throw error;
  }

  // One warning (an hour) for X-Forwarded-For from a proxy TRUSTED_PROXIES does not name.
  const warnUntrustedForward = untrustedForwardWarning(config.trustProxy, app.log);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Oneapi-Request-Id', request.id);
    warnUntrustedForward(request.raw);
  });
  await app.register(fastifyCookie);
  installValidation(app);
  const webDist = defaultWebDist(config);
  installErrorHandler(app, { spaIndex: webDist !== null });
  const { globalWebRateLimit } = config;
  if (globalWebRateLimit.enabled) {
    // GlobalWebRateLimit ("GW"), per IP, on console page loads. Hashed bundle files (anything with
    // an extension) are exempt: one page load fetches many route chunks.
    const limitWeb = limitByIp('GW', () => globalWebRateLimit);
    app.addHook('onRequest', async (request) => {
      const path = request.url.split('?')[0] ?? '';
      if (routeFamilyOf(path) === 'web' && !/\.[a-z0-9]+$/i.test(path) && !isObservabilityPath(path)) {
        await limitWeb(request);
      }
    });
  }
  await app.register(registerConsoleRoutes, { prefix: '/api' });
  registerRelayRoutes(app, lane);
  registerTaskRelayRoutes(app, lane);
  await app.register(observabilityRoutes);
  if (webDist) {
    await app.register(fastifyStatic, { root: webDist, wildcard: false, maxAge: '7d', index: false });
  }

  // Once the server has stopped taking requests and its connections are closed.
  app.addHook('onClose', () => lifecycle.close(app.log));
  lane.open(app, warnUntrustedForward);
  app.decorate('relayLane', lane);
  injectThrough(app, door!);
  return app;
}

import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import { ErrorCode } from '@switchyard/shared';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { Redis } from 'ioredis';
import type { AppServices } from './app-services.ts';
import { SessionStore } from './auth/session-store.ts';
import { VerificationService } from './auth/verification-service.ts';
import { ledgerTimingFromEnv } from './billing/ledger/ledger-timing.ts';
import { startOrphanSweeper } from './billing/ledger/orphan-sweep.ts';
import { reconcileOnStart, startLedgerSweeper } from './billing/ledger/reservation-ledger.ts';
import { ensureRootUser, resolveSessionSecret } from './bootstrap.ts';
import { startChannelMonitor } from './channels/channel-monitor.ts';
import type { Config } from './config/env.ts';
import { registerConsoleRoutes } from './console/console-routes.ts';
import { adoptDatabase, detectDeletedAtStyles } from './db/adopt/adopt-database.ts';
import { checkSqliteBeforeOpen } from './db/adopt/sqlite-before-open.ts';
import { DEFAULT_SQLITE_FILE, openDatabase } from './db/database.ts';
import { migrateDatabases } from './db/migrate.ts';
import { ChannelRepository } from './db/repositories/channel-repository.ts';
import { LogRepository } from './db/repositories/log-repository.ts';
import { OptionRepository } from './db/repositories/option-repository.ts';
import { TokenRepository } from './db/repositories/token-repository.ts';
import { UserRepository } from './db/repositories/user-repository.ts';
import { GatewayError } from './errors/gateway-error.ts';
import {
  type ChangeBus,
  createLocalChangeBus,
  createRedisChangeBus,
  trackRedisHealth,
} from './lib/change-bus.ts';
import { QuotaDataRecorder } from './logs/quota-data-recorder.ts';
import { QuotaDataRepository } from './logs/quota-data-repository.ts';
import { createSmtpMailer } from './mail/mailer.ts';
import { NodeInstance } from './nodes/node-instance.ts';
import { metricsOf } from './observability/gateway-metrics.ts';
import { observabilityRoutes } from './observability/observability-routes.ts';
import { isObservabilityPath } from './observability/request-metrics.ts';
import { OptionStore } from './options/option-store.ts';
import { installErrorHandler, sendError } from './plugins/error-handler.ts';
import { lazyChildLoggerFactory } from './plugins/lazy-request-logger.ts';
import { loggerOptions } from './plugins/log-serializers.ts';
import { createRequestId } from './plugins/request-id.ts';
import { routeFamilyOf } from './plugins/route-family.ts';
import { untrustedForwardWarning } from './plugins/untrusted-forward-warning.ts';
import { installValidation } from './plugins/validation.ts';
import { createDatabaseRateLimiter } from './rate-limit/database-rate-limiter.ts';
import { limitByIp } from './rate-limit/rate-limit-hooks.ts';
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
} from './rate-limit/rate-limiter.ts';
import { createRelayRuntime } from './relay/create-relay-runtime.ts';
import { injectThrough } from './relay/lane/inject-through-lane.ts';
import { RelayLane } from './relay/lane/relay-lane.ts';
import { frontDoor, serverWithLane } from './relay/lane/server-with-lane.ts';
import { registerRelayRoutes } from './relay/relay-routes.ts';
import { startTaskPoller } from './tasks/task-poller.ts';
import { registerTaskRelayRoutes } from './tasks/task-relay-routes.ts';
import { VERSION } from './version.ts';

export interface BuildAppOptions {
  config: Config;
  /** Pino options, or false to silence logs (tests). */
  logger?: FastifyServerOptions['logger'];
}

/** How long shutdown waits for in-flight reservations once connections are closed. */
const RESERVATION_DRAIN_MS = 5_000;

function defaultWebDist(config: Config): string | null {
  const candidate =
    config.webDistDirectory ?? resolve(dirname(fileURLToPath(import.meta.url)), '../../web/dist');
  return existsSync(resolve(candidate, 'index.html')) ? candidate : null;
}

/** Builds the whole application: database, migrations, caches, plugins and routes. */
export async function buildApp({ config, logger }: BuildAppOptions): Promise<FastifyInstance> {
  // Every relay route is served by the relay lane, before Fastify (relay/lane/relay-lane.ts,
  // ADR-42); the server and `inject` share one front door.
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
  if (config.nodeType === 'master' && config.database.kind === 'sqlite') {
    await checkSqliteBeforeOpen(config.database.location || DEFAULT_SQLITE_FILE, app.log);
  }
  const database = openDatabase(config.database, {
    checkpointIntervalMs: config.sqliteCheckpointMs,
    onCheckpointFailure: (error) =>
      app.log.warn({ err: error }, 'WAL checkpoint worker failed; SQLite checkpoints in its commits again'),
  });
  const logDatabase = config.logDatabase ? openDatabase(config.logDatabase) : database;
  const closers: AppServices['closers'] = [];
  try {
    if (config.nodeType === 'master') {
      await adoptDatabase(database, config.logDatabase ? logDatabase : null, app.log);
      await migrateDatabases(database.db as never, config.logDatabase ? (logDatabase.db as never) : null);
    }
    await detectDeletedAtStyles(database);
    let bus: ChangeBus = createLocalChangeBus();
    let rateLimiter: RateLimiter = createMemoryRateLimiter();
    // Model request limits stay exact across nodes without Redis, and through a Redis outage,
    // on PostgreSQL/MySQL (ADR-19); on SQLite one process owns the file and memory is exact.
    const sharedLimiter =
      database.kind === 'sqlite'
        ? null
        : createDatabaseRateLimiter(database, { sweepIntervalMs: config.nodeType === 'master' ? 60_000 : 0 });
    let modelRateLimiter: RateLimiter = sharedLimiter ?? rateLimiter;
    if (config.redisUrl) {
      const watchRedis = trackRedisHealth(app.log);
      bus = createRedisChangeBus(config.redisUrl, watchRedis);
      // Hear other nodes before serving; a Redis outage must not block start-up for long.
      await Promise.race([bus.ready, new Promise((resolve) => setTimeout(resolve, 3_000).unref())]);
      const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
      watchRedis(redis);
      rateLimiter = createRedisRateLimiter(redis, rateLimiter);
      modelRateLimiter = sharedLimiter ? createRedisRateLimiter(redis, sharedLimiter) : rateLimiter;
      closers.push(() => redis.disconnect());
    }
    const optionRepository = new OptionRepository(database);
    const users = new UserRepository(database, (id) => bus.publish('users', String(id)));
    const tokens = new TokenRepository(database);
    const channels = new ChannelRepository(database);
    const logs = new LogRepository(logDatabase.db);
    const options = new OptionStore(optionRepository, bus);
    await options.reload();
    const mailer = createSmtpMailer(options);
    // This process in node_instances (heartbeats): reconciliation only touches dead processes' rows.
    const ledgerTiming = ledgerTimingFromEnv();
    const instance = new NodeInstance(database, config.nodeType, app.log, ledgerTiming.heartbeatMs);
    await instance.start();
    // Pushed first so it runs last (closers run in reverse): after the final settlement flush.
    closers.push(() => instance.stop());
    const quotaData = new QuotaDataRecorder(new QuotaDataRepository(database), app.log);
    quotaData.start(() => options.getNumber('DataExportInterval'));
    // Pushed before the relay's closer so it runs after it (closers run in reverse): settlements
    // drained by the relay's stop still reach the final flush.
    closers.push(() => quotaData.stop());
    const relay = await createRelayRuntime({
      config,
      database,
      logDatabase,
      instanceId: instance.id,
      ledgerTiming,
      channels,
      tokens,
      users,
      logs,
      bus,
      log: app.log,
      options,
      mailer,
      rateLimiter,
    });
    relay.runtime.quotaData = quotaData;
    closers.push(relay.stop);
    const ledger = {
      database,
      logDatabase,
      options,
      log: app.log,
      instanceId: instance.id,
      deadAfterMs: ledgerTiming.deadAfterMs,
    };
    // Every node closes its own reserved rows that no call holds any more (a leak, never normal).
    closers.push(
      startOrphanSweeper(ledger, relay.runtime.billing, {
        everyMs: ledgerTiming.sweepMs,
        olderThanMs: ledgerTiming.orphanAfterMs,
      }),
    );
    // Reservations dead processes left open are refunded (or settled, or their settlement written)
    // before serving; then the master sweeps for processes that die later.
    if (config.nodeType === 'master') {
      await reconcileOnStart(ledger);
      closers.push(startLedgerSweeper(ledger, ledgerTiming.sweepMs));
    }
    // Closers run in reverse: this process's reservations close before the relay drains and flushes.
    closers.push(async () => {
      const idle = await relay.runtime.billing.whenIdle(RESERVATION_DRAIN_MS);
      relay.runtime.billing.close();
      if (idle) return;
      app.log.warn(
        'reservations still open at shutdown; the master reconciles them once this process is gone',
      );
    });
    const services: AppServices = {
      config,
      database,
      logDatabase,
      sessionSecret: '',
      sessions: new SessionStore(database),
      startTime: Math.floor(Date.now() / 1000),
      version: VERSION,
      bus,
      options,
      optionRepository,
      users,
      tokens,
      channels,
      logs,
      quotaData,
      mailer,
      verifications: new VerificationService(database.db),
      rateLimiter,
      modelRateLimiter,
      relay: relay.runtime,
      closers,
    };
    const metrics = metricsOf(services);
    relay.runtime.metrics = metrics;
    relay.runtime.tokenCache.onLookup = (cache, hit) => metrics.cacheLookup(cache, hit);
    services.sessionSecret = await resolveSessionSecret(services, app.log);
    if (config.nodeType === 'master') await ensureRootUser(services, app.log);
    app.decorate('services', services);
    // Periodic channel tests and balance updates run on the master only; stopping also waits for
    // scheduled channel health changes, which every node makes.
    closers.push(startChannelMonitor(services, app.log, { timers: config.nodeType === 'master' }));
    // Drawing and music task polling (master only, unless UPDATE_TASK=false).
    closers.push(startTaskPoller(services, app.log, { timers: config.nodeType === 'master' }));

    const sync = setInterval(() => {
      options.reload().catch((error: unknown) => app.log.warn({ err: error }, 'option sync failed'));
    }, config.syncFrequencySeconds * 1000);
    sync.unref();
    closers.push(() => clearInterval(sync));
    closers.push(() => rateLimiter.close());
    if (sharedLimiter) closers.push(() => sharedLimiter.close());
    closers.push(() => bus.close());
  } catch (error) {
    await database.destroy().catch(() => undefined);
    if (logDatabase !== database) await logDatabase.destroy().catch(() => undefined);
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

  app.addHook('onClose', async () => {
    // Every step runs even if an earlier one fails, so the databases are always closed.
    for (const close of app.services.closers.reverse()) {
      await Promise.resolve()
        .then(close)
        .catch((error: unknown) => app.log.error({ err: error }, 'shutdown step failed'));
    }
    await app.services.database.destroy();
    if (app.services.logDatabase !== app.services.database) await app.services.logDatabase.destroy();
  });
  lane.open(app, warnUntrustedForward);
  app.decorate('relayLane', lane);
  injectThrough(app, door!);
  return app;
}

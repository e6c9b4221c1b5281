import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../app-services.ts';
import { SessionStore } from '../auth/session-store.ts';
import { VerificationService } from '../auth/verification-service.ts';
import { ledgerTimingFromEnv } from '../billing/ledger/ledger-timing.ts';
import { ensureRootUser, resolveSessionSecret } from '../bootstrap.ts';
import type { Config } from '../config/env.ts';
import { ChannelRepository } from '../db/repositories/channel-repository.ts';
import { LogRepository } from '../db/repositories/log-repository.ts';
import { OptionRepository } from '../db/repositories/option-repository.ts';
import { TokenRepository } from '../db/repositories/token-repository.ts';
import { UserRepository } from '../db/repositories/user-repository.ts';
import { rolledUpThrough } from '../logs/rollup/rolled-up-through.ts';
import { createSmtpMailer } from '../mail/mailer.ts';
import { metricsOf } from '../observability/gateway-metrics.ts';
import { OptionStore } from '../options/option-store.ts';
import { createRelayRuntime } from '../relay/create-relay-runtime.ts';
import { VERSION } from '../version.ts';
import { startBackgroundJobs, startLogCleanup, startQuotaData } from './background-jobs.ts';
import { openDatabases } from './databases.ts';
import { startLedgerUpkeep, startNodeInstance } from './ledger-upkeep.ts';
import { startSharedState } from './shared-state.ts';
import type { AppLifecycle } from './subsystems.ts';

/**
 * Builds every service the routes use, in the order their construction needs: databases, shared
 * state, repositories and options, this node's instance row, the relay runtime and its writers,
 * the ledger's upkeep, then the background jobs. Each subsystem registers its own close on
 * `lifecycle` as it is built; the order they close in comes from what they need, not from here.
 */
export async function composeServices(
  config: Config,
  lifecycle: AppLifecycle,
  log: FastifyBaseLogger,
): Promise<AppServices> {
  const { database, logDatabase } = await openDatabases(config, lifecycle, log);
  const { bus, rateLimiter, modelRateLimiter } = await startSharedState(config, database, lifecycle, log);
  const optionRepository = new OptionRepository(database);
  const users = new UserRepository(database, (id) => bus.publish('users', String(id)));
  const tokens = new TokenRepository(database);
  const channels = new ChannelRepository(database);
  const logs = new LogRepository(logDatabase.db);
  const options = new OptionStore(optionRepository, bus);
  await options.reload();
  const mailer = createSmtpMailer(options);
  const ledgerTiming = ledgerTimingFromEnv();
  const instance = await startNodeInstance(config, database, ledgerTiming, lifecycle, log);
  const quotaData = startQuotaData(database, options, lifecycle, log);
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
    log,
    options,
    mailer,
    rateLimiter,
    lifecycle,
  });
  relay.quotaData = quotaData;
  // Clean-up never deletes a row the stat aggregates have not counted yet (ADR-49).
  const logCleaner = startLogCleanup(config.nodeType, logDatabase, options, lifecycle, log, () =>
    rolledUpThrough(logDatabase.db),
  );
  await startLedgerUpkeep({
    config,
    database,
    logDatabase,
    options,
    instance,
    timing: ledgerTiming,
    billing: relay.billing,
    lifecycle,
    log,
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
    logCleaner,
    quotaData,
    mailer,
    verifications: new VerificationService(database.db),
    rateLimiter,
    modelRateLimiter,
    relay,
    lifecycle,
  };
  const metrics = metricsOf(services);
  relay.metrics = metrics;
  relay.tokenCache.onLookup = (cache, hit) => metrics.cacheLookup(cache, hit);
  services.sessionSecret = await resolveSessionSecret(services, log);
  if (config.nodeType === 'master') await ensureRootUser(services, log);
  startBackgroundJobs(services, lifecycle, log);
  return services;
}

import { preloadTokenizers } from '@switchyard/relay-kit';
import type { FastifyBaseLogger } from 'fastify';
import { BillingService } from '../billing/ledger/billing-service.ts';
import type { LedgerTiming } from '../billing/ledger/ledger-timing.ts';
import { SettlementWriter } from '../billing/settlement/settlement-writer.ts';
import { ChannelIndex } from '../channels/channel-index.ts';
import type { Config } from '../config/env.ts';
import type { DatabaseHandle } from '../db/database.ts';
import type { ChannelRepository } from '../db/repositories/channel-repository.ts';
import type { LogRepository } from '../db/repositories/log-repository.ts';
import type { TokenRepository } from '../db/repositories/token-repository.ts';
import type { UserRepository } from '../db/repositories/user-repository.ts';
import type { ChangeBus } from '../lib/change-bus.ts';
import { LogWriter } from '../logs/log-writer.ts';
import type { Mailer } from '../mail/mailer.ts';
import { QuotaNotifier } from '../notifications/quota-notifier.ts';
import type { OptionStore } from '../options/option-store.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import type { AppLifecycle } from '../start/subsystems.ts';
import { createProviderSettingsSource } from './provider-settings.ts';
import type { RelayRuntime } from './relay-runtime.ts';
import { SettlementsInFlight } from './settlements-in-flight.ts';
import { TokenCache } from './token-cache.ts';
import { UpstreamClient } from './upstream-client.ts';

interface RelayDependencies {
  config: Config;
  database: DatabaseHandle;
  logDatabase: DatabaseHandle;
  /** This process's node_instances id (stamped on its ledger rows). */
  instanceId: string;
  ledgerTiming: LedgerTiming;
  channels: ChannelRepository;
  tokens: TokenRepository;
  users: UserRepository;
  logs: LogRepository;
  bus: ChangeBus;
  log: FastifyBaseLogger;
  options: OptionStore;
  mailer: Mailer;
  rateLimiter: RateLimiter;
  /** Where the relay and its writers register their closes. */
  lifecycle: AppLifecycle;
}

/** How long shutdown waits for the calls' open reservations once connections are closed. */
const RESERVATION_DRAIN_MS = 5_000;

/**
 * Builds the relay's caches and clients, loads the channel index, and keeps everything current:
 * change-bus events invalidate tokens and users and rebuild the index (coalesced), and a timer
 * rebuilds it every SYNC_FREQUENCY for changes made by other nodes without Redis.
 *
 * Registers four subsystems, each closing once what needs it has closed (lib/lifecycle.ts):
 * - `relay`: waits (up to 5 s) until the calls' reservations (relay and task routes) are settled
 *   or refunded, then for the settlements still running, flushes queued logs and closes the
 *   upstream connections. It needs everything below, the bus and the limiters.
 * - `ledger` (the billing service): stops retrying refused settlements and refunds.
 * - `log-writer`: writes the log rows left (its flush also writes the settlement writer's queue).
 * - `settlement-writer`: writes the last batch: consume log rows and usage counters. It needs
 *   `node-instance`, whose row must outlive this process's ledger rows.
 */
export async function createRelayRuntime(deps: RelayDependencies): Promise<RelayRuntime> {
  // Load the tokenizer tables now, not on the first request (about 0.8 s and 70 MB).
  preloadTokenizers();
  const settlements = new SettlementWriter({
    database: deps.database,
    logDatabase: deps.logDatabase,
    log: deps.log,
    batchSize: deps.ledgerTiming.batchSize,
    intervalMs: deps.ledgerTiming.flushMs,
  });
  deps.lifecycle.register('settlement-writer', {
    needs: ['node-instance'],
    close: () => settlements.close(),
  });
  const logWriter = new LogWriter(deps.logs, deps.log, 200, 500, settlements);
  deps.lifecycle.register('log-writer', { needs: ['settlement-writer'], close: () => logWriter.close() });
  const channelIndex = new ChannelIndex(() => deps.channels.listEnabledForIndex());
  await channelIndex.rebuild();
  const runtime: RelayRuntime = {
    channelIndex,
    tokenCache: new TokenCache(
      (key) => deps.tokens.findByKey(key),
      (id) => deps.users.findById(id),
      deps.config.syncFrequencySeconds * 1000,
    ),
    billing: new BillingService(deps.database, {
      instanceId: deps.instanceId,
      settlements,
      log: deps.log,
    }),
    upstream: new UpstreamClient(deps.config),
    logWriter,
    quotaNotifier: new QuotaNotifier(deps, deps.log),
    providerSettings: createProviderSettingsSource(deps.options),
    fetch: globalThis.fetch,
    imageFetchSettings: () => ({
      workerUrl: deps.options.get('WorkerUrl').trim(),
      workerKey: deps.options.get('WorkerValidKey'),
      maxBytes: deps.config.maxFileDownloadBytes,
      timeoutMs: 20_000,
      allowPrivateAddresses: deps.config.allowPrivateImageUrls,
    }),
    random: Math.random,
    settlements: new SettlementsInFlight(),
    drain: async () => {
      await runtime.settlements.idle();
      await runtime.logWriter.flush();
    },
  };
  const onRebuildError = (error: unknown) => deps.log.warn({ err: error }, 'channel index rebuild failed');
  const rebuild = () => channelIndex.refresh(onRebuildError);
  deps.bus.subscribe((topic, detail) => {
    if (topic === 'channels') channelIndex.refresh(onRebuildError, true);
    else if (topic === 'tokens') runtime.tokenCache.invalidateToken(Number(detail));
    else if (topic === 'users') {
      runtime.tokenCache.invalidateUser(Number(detail));
      runtime.quotaNotifier.forget(Number(detail));
    }
  });
  const timer = setInterval(rebuild, deps.config.syncFrequencySeconds * 1000);
  timer.unref();
  deps.lifecycle.register('ledger', {
    needs: ['settlement-writer', 'node-instance'],
    close: () => runtime.billing.close(),
  });
  deps.lifecycle.register('relay', {
    needs: ['ledger', 'log-writer', 'settlement-writer', 'quota-data', 'bus', 'rate-limiter'],
    close: async () => {
      clearInterval(timer);
      if (!(await runtime.billing.whenIdle(RESERVATION_DRAIN_MS))) {
        deps.log.warn(
          'reservations still open at shutdown; the master reconciles them once this process is gone',
        );
      }
      await runtime.drain();
      await runtime.upstream.close();
    },
  });
  return runtime;
}

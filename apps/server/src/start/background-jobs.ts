import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../app-services.ts';
import { startChannelMonitor } from '../channels/channel-monitor.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { QuotaDataRecorder } from '../logs/quota-data-recorder.ts';
import { QuotaDataRepository } from '../logs/quota-data-repository.ts';
import { cleanupPacingFromEnv } from '../logs/retention/cleanup-pacing.ts';
import { LogCleaner, type LogIdBound } from '../logs/retention/log-cleaner.ts';
import { startLogRetentionJob } from '../logs/retention/log-retention-job.ts';
import { LogRollupJob } from '../logs/rollup/log-rollup-job.ts';
import type { OptionStore } from '../options/option-store.ts';
import { startTaskPoller } from '../tasks/task-poller.ts';
import type { AppLifecycle } from './subsystems.ts';

/**
 * Dashboard data (quota_data), accumulated in memory and written every DataExportInterval
 * minutes: `quota-data`. The relay records into it, so its last write comes after the relay's.
 */
export function startQuotaData(
  database: DatabaseHandle,
  options: OptionStore,
  lifecycle: AppLifecycle,
  log: FastifyBaseLogger,
): QuotaDataRecorder {
  const quotaData = new QuotaDataRecorder(new QuotaDataRepository(database), log);
  quotaData.start(() => options.getNumber('DataExportInterval'));
  lifecycle.register('quota-data', { close: () => quotaData.stop() });
  return quotaData;
}

/**
 * Batched log clean-up on the logs database: `log-cleaner` on every node (the console's "clear
 * logs before" runs on the node that receives it), and `log-retention`, the retention schedule,
 * on the master only (one node deletes; the rules' cursors have one writer). `upperBound` is the
 * highest logs.id clean-up may delete (default: none).
 */
export function startLogCleanup(
  nodeType: 'master' | 'slave',
  logDatabase: DatabaseHandle,
  options: OptionStore,
  lifecycle: AppLifecycle,
  log: FastifyBaseLogger,
  upperBound?: LogIdBound,
): LogCleaner {
  const pacing = cleanupPacingFromEnv();
  const cleaner = new LogCleaner(logDatabase.db, upperBound ? { pacing, upperBound } : { pacing });
  lifecycle.register('log-cleaner', { close: () => cleaner.stop() });
  if (nodeType === 'master') {
    const stop = startLogRetentionJob({ cleaner, days: (key) => options.getNumber(key), log });
    lifecycle.register('log-retention', { needs: ['log-cleaner'], close: stop });
  }
  return cleaner;
}

/**
 * The timers that need the whole app:
 * - `channel-monitor`: periodic channel tests and balance updates on the master; stopping also
 *   waits for scheduled channel health changes, which every node makes (the channel index, log rows).
 * - `task-poller`: drawing and music task polling (master only, unless UPDATE_TASK=false); it
 *   refunds failed tasks through the ledger and writes log rows.
 * - `option-sync`: every SYNC_FREQUENCY, options are read again (changes made by other nodes
 *   without Redis).
 * - `log-rollup`: the consume-log aggregates the stat routes read (logs/rollup/), master only;
 *   it reads and writes the log database alone, so it needs nothing but the databases.
 */
export function startBackgroundJobs(services: AppServices, lifecycle: AppLifecycle, log: FastifyBaseLogger) {
  const timers = services.config.nodeType === 'master';
  lifecycle.register('channel-monitor', {
    needs: ['relay', 'log-writer', 'bus'],
    close: startChannelMonitor(services, log, { timers }),
  });
  lifecycle.register('task-poller', {
    needs: ['ledger', 'log-writer', 'bus'],
    close: startTaskPoller(services, log, { timers }),
  });
  if (timers) {
    const rollup = new LogRollupJob(services.logDatabase.db, services.logDatabase.kind, log);
    rollup.start();
    lifecycle.register('log-rollup', { close: () => rollup.stop() });
  }
  const sync = setInterval(() => {
    services.options.reload().catch((error: unknown) => log.warn({ err: error }, 'option sync failed'));
  }, services.config.syncFrequencySeconds * 1000);
  sync.unref();
  lifecycle.register('option-sync', { close: () => clearInterval(sync) });
}

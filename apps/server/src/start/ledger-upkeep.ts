import type { FastifyBaseLogger } from 'fastify';
import type { LedgerTiming } from '../billing/ledger/ledger-timing.ts';
import { type HeldRows, startOrphanSweeper } from '../billing/ledger/orphan-sweep.ts';
import { reconcileOnStart, startLedgerSweeper } from '../billing/ledger/reservation-ledger.ts';
import type { Config } from '../config/env.ts';
import type { DatabaseHandle } from '../db/database.ts';
import { NodeInstance } from '../nodes/node-instance.ts';
import type { OptionStore } from '../options/option-store.ts';
import type { AppLifecycle } from './subsystems.ts';

/**
 * Registers this process in node_instances (heartbeats) and `node-instance`: reconciliation only
 * touches dead processes' rows, so the row must outlive every ledger row of this process. The
 * settlement writer and the ledger need it: its row goes after their last write.
 */
export async function startNodeInstance(
  config: Config,
  database: DatabaseHandle,
  timing: LedgerTiming,
  lifecycle: AppLifecycle,
  log: FastifyBaseLogger,
): Promise<NodeInstance> {
  const instance = new NodeInstance(database, config.nodeType, log, timing.heartbeatMs);
  await instance.start();
  lifecycle.register('node-instance', { close: () => instance.stop() });
  return instance;
}

export interface LedgerUpkeepDependencies {
  config: Config;
  database: DatabaseHandle;
  logDatabase: DatabaseHandle;
  options: OptionStore;
  instance: NodeInstance;
  timing: LedgerTiming;
  /** The billing service: the ledger rows its open calls hold. */
  billing: HeldRows;
  lifecycle: AppLifecycle;
  log: FastifyBaseLogger;
}

/**
 * The ledger's upkeep. Every node closes its own reserved rows that no call holds any more (a
 * leak, never normal): `orphan-sweeper`, needing the ledger. On the master, reservations dead
 * processes left open are refunded (or settled, or their settlement written) before serving, then
 * `ledger-sweeper` reconciles processes that die later.
 */
export async function startLedgerUpkeep(deps: LedgerUpkeepDependencies): Promise<void> {
  const { timing, lifecycle } = deps;
  const ledger = {
    database: deps.database,
    logDatabase: deps.logDatabase,
    options: deps.options,
    log: deps.log,
    instanceId: deps.instance.id,
    deadAfterMs: timing.deadAfterMs,
  };
  lifecycle.register('orphan-sweeper', {
    needs: ['ledger', 'node-instance'],
    close: startOrphanSweeper(ledger, deps.billing, {
      everyMs: timing.sweepMs,
      olderThanMs: timing.orphanAfterMs,
    }),
  });
  if (deps.config.nodeType !== 'master') return;
  await reconcileOnStart(ledger);
  lifecycle.register('ledger-sweeper', {
    needs: ['node-instance'],
    close: startLedgerSweeper(ledger, timing.sweepMs),
  });
}

import { ConfigError, readInteger } from '../../config/env.ts';

/** Intervals of the reservation ledger's background work (milliseconds) and the batch size. */
export interface LedgerTiming {
  /** How often the settlement writer writes settled calls (SETTLEMENT_FLUSH_MS, 200). */
  flushMs: number;
  /** A batch is written at once when this many settled calls wait (SETTLEMENT_BATCH_SIZE, 50). */
  batchSize: number;
  /** How often a process records that it is alive (NODE_HEARTBEAT_MS, 5 s). */
  heartbeatMs: number;
  /** A process whose heartbeat is older than this is dead (NODE_DEAD_AFTER_MS, 30 s). */
  deadAfterMs: number;
  /** How often the master reconciles reservations of dead processes (LEDGER_SWEEP_MS, 10 s). */
  sweepMs: number;
  /**
   * A reserved row of this process that none of its calls holds, older than this, is closed by
   * the orphan sweep (LEDGER_ORPHAN_AFTER_MS, 10 minutes; orphan-sweep.ts).
   */
  orphanAfterMs: number;
}

export const DEFAULT_LEDGER_TIMING: LedgerTiming = {
  flushMs: 200,
  batchSize: 50,
  heartbeatMs: 5_000,
  deadAfterMs: 30_000,
  sweepMs: 10_000,
  orphanAfterMs: 600_000,
};

const positive = (env: NodeJS.ProcessEnv, name: string, fallback: number) =>
  readInteger(env, name, fallback, 1);

/**
 * Reads the ledger intervals from the environment (tests shorten them). The dead-after time must
 * exceed two heartbeats, or a live process that beats a little late would be taken for dead.
 */
export function ledgerTimingFromEnv(env: NodeJS.ProcessEnv = process.env): LedgerTiming {
  const d = DEFAULT_LEDGER_TIMING;
  const timing: LedgerTiming = {
    flushMs: positive(env, 'SETTLEMENT_FLUSH_MS', d.flushMs),
    batchSize: positive(env, 'SETTLEMENT_BATCH_SIZE', d.batchSize),
    heartbeatMs: positive(env, 'NODE_HEARTBEAT_MS', d.heartbeatMs),
    deadAfterMs: positive(env, 'NODE_DEAD_AFTER_MS', d.deadAfterMs),
    sweepMs: positive(env, 'LEDGER_SWEEP_MS', d.sweepMs),
    orphanAfterMs: positive(env, 'LEDGER_ORPHAN_AFTER_MS', d.orphanAfterMs),
  };
  if (timing.deadAfterMs <= 2 * timing.heartbeatMs) {
    throw new ConfigError('NODE_DEAD_AFTER_MS must be more than twice NODE_HEARTBEAT_MS');
  }
  return timing;
}

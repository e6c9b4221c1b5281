import { ConfigError } from '../../config/env.ts';

/**
 * How clean-up paces itself. Batches are sized by time: a batch that took longer than `batchMs`
 * halves the next one, one that took under half of it doubles the next (from `firstBatch`, never
 * above `batchSize`, never under 10 rows); after a batch of d ms clean-up rests at least
 * d × (100 / sharePercent − 1) ms, and never less than `pauseMs`. So clean-up takes at most
 * `sharePercent` of the database's time, in pieces of about `batchMs`, on whatever hardware.
 */
export interface CleanupPacing {
  /** Most rows per batch. */
  batchSize: number;
  /** Rows of the first batch (at most batchSize). */
  firstBatch: number;
  /** The time a batch aims for (ms). */
  batchMs: number;
  /** Least pause between batches (ms). */
  pauseMs: number;
  /** Most of the time clean-up may take, in percent. */
  sharePercent: number;
}

/**
 * Chosen by bench/src/retention/ (docs/logs-retention.md): on SQLite a batch runs on the event
 * loop, so its length is what a relay call waiting behind it gains, and clean-up's share of the
 * loop is what the relay loses in throughput while it runs.
 */
export const DEFAULT_CLEANUP_PACING: CleanupPacing = {
  batchSize: 2000,
  firstBatch: 100,
  batchMs: 10,
  pauseMs: 20,
  sharePercent: 10,
};

/** A pacing with a fixed batch size and pause (tests): every batch `batchSize` rows, `pauseMs` apart. */
export function fixedPacing(batchSize: number, pauseMs: number): CleanupPacing {
  return { batchSize, firstBatch: batchSize, batchMs: Number.POSITIVE_INFINITY, pauseMs, sharePercent: 100 };
}

/** The size of the batch after one of `size` rows that took `ms`. */
export function nextBatchSize(pacing: CleanupPacing, size: number, ms: number): number {
  if (ms > pacing.batchMs) return Math.max(10, Math.floor(size / 2));
  if (ms < pacing.batchMs / 2) return Math.min(pacing.batchSize, size * 2);
  return size;
}

/** The pause after a batch that took `ms`. */
export function pauseAfter(pacing: CleanupPacing, ms: number): number {
  return Math.max(pacing.pauseMs, (ms * (100 - pacing.sharePercent)) / pacing.sharePercent);
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/**
 * LOG_CLEANUP_BATCH_SIZE (most rows per batch, 10–10000: one statement binds every id of a
 * batch), LOG_CLEANUP_BATCH_MS (1–10000), LOG_CLEANUP_PAUSE_MS (least pause, 0–600000) and
 * LOG_CLEANUP_SHARE (percent, 1–100); defaults above.
 */
export function cleanupPacingFromEnv(env: NodeJS.ProcessEnv = process.env): CleanupPacing {
  const d = DEFAULT_CLEANUP_PACING;
  const batchSize = integer(env, 'LOG_CLEANUP_BATCH_SIZE', d.batchSize, 10, 10_000);
  return {
    batchSize,
    firstBatch: Math.min(batchSize, d.firstBatch),
    batchMs: integer(env, 'LOG_CLEANUP_BATCH_MS', d.batchMs, 1, 10_000),
    pauseMs: integer(env, 'LOG_CLEANUP_PAUSE_MS', d.pauseMs, 0, 600_000),
    sharePercent: integer(env, 'LOG_CLEANUP_SHARE', d.sharePercent, 1, 100),
  };
}

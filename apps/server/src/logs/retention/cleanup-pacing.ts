import { ConfigError } from '../../config/env.ts';

/**
 * How a background job on the logs table paces itself (retention's clean-up, and the stat roll-up
 * in `logs/rollup/`). Batches are sized by time: a batch that took longer than `batchMs` halves
 * the next one, one that took under half of it doubles the next (from `firstBatch`, never above
 * `batchSize`, never under 10 rows); after a batch of d ms the job rests at least
 * d × (100 / sharePercent − 1) ms, and never less than `pauseMs`. So the job takes at most
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

/** The environment variables of one paced job, and the largest batch its statements allow. */
export interface PacingNames {
  batchSize: string;
  batchMs: string;
  pauseMs: string;
  sharePercent: string;
  /** The most rows a batch may be set to. */
  maxBatch: number;
}

/** A pacing from the environment: each variable overrides its default; out of range is a ConfigError. */
export function pacingFromEnv(
  env: NodeJS.ProcessEnv,
  names: PacingNames,
  defaults: CleanupPacing,
): CleanupPacing {
  const batchSize = integer(env, names.batchSize, defaults.batchSize, 10, names.maxBatch);
  return {
    batchSize,
    firstBatch: Math.min(batchSize, defaults.firstBatch),
    batchMs: integer(env, names.batchMs, defaults.batchMs, 1, 10_000),
    pauseMs: integer(env, names.pauseMs, defaults.pauseMs, 0, 600_000),
    sharePercent: integer(env, names.sharePercent, defaults.sharePercent, 1, 100),
  };
}

/**
 * LOG_CLEANUP_BATCH_SIZE (most rows per batch, 10–10000: one statement binds every id of a
 * batch), LOG_CLEANUP_BATCH_MS (1–10000), LOG_CLEANUP_PAUSE_MS (least pause, 0–600000) and
 * LOG_CLEANUP_SHARE (percent, 1–100); defaults above.
 */
export function cleanupPacingFromEnv(env: NodeJS.ProcessEnv = process.env): CleanupPacing {
  return pacingFromEnv(
    env,
    {
      batchSize: 'LOG_CLEANUP_BATCH_SIZE',
      batchMs: 'LOG_CLEANUP_BATCH_MS',
      pauseMs: 'LOG_CLEANUP_PAUSE_MS',
      sharePercent: 'LOG_CLEANUP_SHARE',
      maxBatch: 10_000,
    },
    DEFAULT_CLEANUP_PACING,
  );
}

/**
 * The batch sizes and pauses of one piece of paced work: `time` runs a batch and measures it,
 * `size` is the next batch's rows and `pauseMs()` the rest due after the last batch.
 */
export class PacedBatches {
  private next: number;
  private lastMs = 0;

  constructor(private readonly pacing: CleanupPacing) {
    this.next = pacing.firstBatch;
  }

  get size(): number {
    return this.next;
  }

  /** Runs and times a batch; a slow one shrinks the next, a quick one grows it if `grows` says so. */
  async time<T>(batch: () => Promise<T>, grows: (result: T) => boolean = () => true): Promise<T> {
    const started = performance.now();
    const result = await batch();
    this.lastMs = performance.now() - started;
    const next = nextBatchSize(this.pacing, this.next, this.lastMs);
    if (next < this.next || grows(result)) this.next = next;
    return result;
  }

  pauseMs(): number {
    return pauseAfter(this.pacing, this.lastMs);
  }
}

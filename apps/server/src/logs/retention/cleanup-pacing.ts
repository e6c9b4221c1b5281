import { ConfigError } from '../../config/env.ts';

/** How clean-up paces itself: rows per statement and the rest between two statements. */
export interface CleanupPacing {
  batchSize: number;
  pauseMs: number;
}

/**
 * Rows per batch and pause between batches, chosen by bench/src/retention/ (docs/logs-retention.md):
 * on SQLite a batch runs on the event loop, so its length is added to the relay calls waiting
 * behind it; the pause keeps clean-up to a small share of the database's time.
 */
export const DEFAULT_CLEANUP_PACING: CleanupPacing = { batchSize: 500, pauseMs: 50 };

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

/** LOG_CLEANUP_BATCH_SIZE (rows, 10–10000: one statement binds every id of a batch) and LOG_CLEANUP_PAUSE_MS (0–60000); defaults above. */
export function cleanupPacingFromEnv(env: NodeJS.ProcessEnv = process.env): CleanupPacing {
  return {
    batchSize: integer(env, 'LOG_CLEANUP_BATCH_SIZE', DEFAULT_CLEANUP_PACING.batchSize, 10, 10_000),
    pauseMs: integer(env, 'LOG_CLEANUP_PAUSE_MS', DEFAULT_CLEANUP_PACING.pauseMs, 0, 60_000),
  };
}

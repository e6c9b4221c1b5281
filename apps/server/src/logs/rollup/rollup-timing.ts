import type { DatabaseKind } from '../../config/env.ts';
import { ConfigError } from '../../config/env.ts';
import { type CleanupPacing, pacingFromEnv } from '../retention/cleanup-pacing.ts';

export interface LogRollupTiming {
  /**
   * Batches sized by time, with rests between them while catching up (cleanup-pacing.ts, the
   * pacing retention uses), so a batch never holds the database for long and the roll-up takes at
   * most its share of the time, however costly its rows are.
   */
  pacing: CleanupPacing;
  /** Wait when nothing new is there. */
  idleMs: number;
  /**
   * How long an id must have been visible before the watermark passes the ids below it. On
   * PostgreSQL and MySQL ids are handed out when a row is inserted but become visible when its
   * transaction commits, so id 41 can appear after id 42: a watermark moved to 42 at once would
   * never count 41. The job notes the highest committed id it sees, and only after `settleMs` moves
   * the watermark up to that id: every id below it was handed out before the note was taken, and
   * its transaction has had `settleMs` to commit or roll back. Consume rows are written by short
   * transactions (a settlement batch, a log-writer flush); one that holds an inserted logs row
   * uncommitted for longer would have its row left out. SQLite hands out ids under its one write
   * lock, so they become visible in order and the setting is 0 there.
   */
  settleMs: number;
}

/**
 * On SQLite a batch runs on the event loop, on the connection the relay's settlements share: its
 * length is what a relay call waiting behind it gains, so batches aim for 25 ms and take at most
 * 20% of the time. A batch has a fixed cost (a dozen statements and a commit) besides its rows, so
 * shorter batches would hold so few rows that the roll-up fell behind a few dozen calls a second. On PostgreSQL and MySQL the work is the database server's
 * and the relay never waits on log_rollups, so batches are longer and the share larger.
 */
export function defaultRollupPacing(kind: DatabaseKind): CleanupPacing {
  return kind === 'sqlite'
    ? { batchSize: 20_000, firstBatch: 100, batchMs: 25, pauseMs: 20, sharePercent: 20 }
    : { batchSize: 20_000, firstBatch: 100, batchMs: 50, pauseMs: 20, sharePercent: 25 };
}

function whole(env: NodeJS.ProcessEnv, name: string, fallback: number, least: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < least) {
    throw new ConfigError(`${name} must be an integer of at least ${least}, got "${raw}"`);
  }
  return value;
}

/**
 * The roll-up's timing for a database: LOG_ROLLUP_BATCH_ROWS (most rows a batch, 10–1000000),
 * LOG_ROLLUP_BATCH_MS (the time a batch aims for, 1–10000), LOG_ROLLUP_PAUSE_MS (least rest
 * between batches while catching up, 0–600000), LOG_ROLLUP_SHARE (most percent of the time,
 * 1–100), LOG_ROLLUP_IDLE_MS and LOG_ROLLUP_SETTLE_MS override the defaults. A catch-up at full
 * duty (an operator's backfill with nothing else running): LOG_ROLLUP_SHARE=100,
 * LOG_ROLLUP_PAUSE_MS=0 and a long LOG_ROLLUP_BATCH_MS (5000).
 */
export function rollupTimingFor(kind: DatabaseKind, env: NodeJS.ProcessEnv = process.env): LogRollupTiming {
  return {
    pacing: pacingFromEnv(
      env,
      {
        batchSize: 'LOG_ROLLUP_BATCH_ROWS',
        batchMs: 'LOG_ROLLUP_BATCH_MS',
        pauseMs: 'LOG_ROLLUP_PAUSE_MS',
        sharePercent: 'LOG_ROLLUP_SHARE',
        maxBatch: 1_000_000,
      },
      defaultRollupPacing(kind),
    ),
    idleMs: whole(env, 'LOG_ROLLUP_IDLE_MS', 20_000, 1),
    settleMs: whole(env, 'LOG_ROLLUP_SETTLE_MS', kind === 'sqlite' ? 0 : 30_000, 0),
  };
}

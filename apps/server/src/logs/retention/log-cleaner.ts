import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { type CleanupPacing, DEFAULT_CLEANUP_PACING, PacedBatches } from './cleanup-pacing.ts';
import { type ClearProgress, ClearRun } from './clear-run.ts';
import { LogBatchDeleter } from './log-batch-deleter.ts';
import { RetentionCursors } from './retention-cursors.ts';
import { RETENTION_RULES, type RetentionRuleName, retentionHorizon } from './retention-rules.ts';

/** Why a clear ended early: the node is shutting down. Clearing again continues the work. */
export const STOPPED_MESSAGE = '服务正在停止，日志清理已中断，再次清理会继续';

/** The highest logs.id the retention rules may delete or change (the aggregates' rolledUpThrough). */
export type LogIdBound = () => Promise<number>;

export interface LogCleanerOptions {
  pacing?: CleanupPacing;
  /** Default: no bound. */
  upperBound?: LogIdBound;
}

/** What one retention run changed, per rule. */
export type RetentionResult = Record<RetentionRuleName, number>;

/** How long a clear's caller waits for its end: `ms`, or until `until` settles if that is sooner. */
export interface ClearWait {
  ms: number;
  until?: Promise<unknown>;
}

/** The run's progress once it has ended, or when the wait is over if it is still running then. */
async function progressAfter(run: ClearRun, wait: ClearWait): Promise<ClearProgress> {
  if (!run.finished && wait.ms > 0) {
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, wait.ms);
    });
    await Promise.race([run.ended, waited, ...(wait.until ? [wait.until] : [])]);
    clearTimeout(timer);
  }
  return run.progress();
}

/**
 * Batched clean-up of the logs table: the retention rules and "clear logs before". One piece of
 * work runs at a time, in batches sized by their time and followed by pauses (cleanup-pacing.ts),
 * so the relay's writes to the same tables are never held up for long. A clear that is
 * asked for while a retention run is in progress takes over at the run's next batch (the run
 * stops there and continues at its next schedule). `stop()` ends the work after the batch in
 * progress; every batch is complete in itself, so stopping anywhere leaves correct data.
 */
export class LogCleaner {
  private readonly deleter: LogBatchDeleter;
  private readonly cursors: RetentionCursors;
  private readonly pacing: CleanupPacing;
  private readonly upperBound: LogIdBound;
  /** The work holding the cleaner, and the end of the queue of work waiting for it. */
  private tail: Promise<unknown> = Promise.resolve();
  private clear: ClearRun | null = null;
  private clearWaiting = false;
  private stopped = false;
  private wake: (() => void) | null = null;

  constructor(db: Kysely<Database>, options: LogCleanerOptions = {}) {
    this.deleter = new LogBatchDeleter(db);
    this.cursors = new RetentionCursors(db);
    this.pacing = options.pacing ?? DEFAULT_CLEANUP_PACING;
    this.upperBound = options.upperBound ?? (async () => Number.POSITIVE_INFINITY);
  }

  /** The latest clear's progress on this node (idle when none has run since start). */
  clearProgress(): ClearProgress {
    return this.clear?.progress() ?? ClearRun.idle();
  }

  /**
   * Starts deleting every log created before `target` (seconds), or joins the clear already
   * running for the same time. Resolves after the first batch and then, while the clear runs,
   * waits as `wait` says for its end, with the progress at that moment; the clear itself goes on
   * in the background to its end. Another time while a clear runs is refused (null).
   */
  async startClear(target: number, wait: ClearWait = { ms: 0 }): Promise<ClearProgress | null> {
    const running = this.clear;
    if (running && !running.finished) {
      return running.target === target ? progressAfter(running, wait) : null;
    }
    const run = new ClearRun(target);
    this.clear = run;
    let firstBatch!: () => void;
    const first = new Promise<void>((resolve) => {
      firstBatch = resolve;
    });
    this.clearWaiting = true;
    void this.exclusive(async () => {
      this.clearWaiting = false;
      try {
        if (this.stopped) return run.fail(STOPPED_MESSAGE);
        // An admin's clear deletes every row before the target, counted in the aggregates or not:
        // it is asked for by hand, and rows still waiting for the roll-up are seconds old.
        const batches = this.batches();
        for (;;) {
          const size = batches.size;
          const deleted = await batches.time(() =>
            this.deleter.clearBatch(target, Number.POSITIVE_INFINITY, size),
          );
          run.add(deleted);
          firstBatch();
          if (deleted < size) break;
          if (!(await batches.pause())) return run.fail(STOPPED_MESSAGE);
        }
        run.finish();
      } catch (error) {
        run.fail(error instanceof Error ? error.message : String(error));
      } finally {
        firstBatch();
      }
    });
    await first;
    return progressAfter(run, wait);
  }

  /**
   * One retention run: each rule whose option keeps rows for `days(option)` > 0 walks the logs
   * from its cursor to its horizon (`nowSeconds` − days) and the id bound. Resolves with what each
   * rule changed; ends early (resuming next time) when stopped or when a clear is waiting.
   */
  runRetention(days: (option: string) => number, nowSeconds = Math.floor(Date.now() / 1000)) {
    return this.exclusive(async (): Promise<RetentionResult> => {
      const result: RetentionResult = { consume: 0, error: 0, detail: 0 };
      const bound = await this.upperBound();
      const batches = this.batches();
      for (const rule of RETENTION_RULES) {
        const horizon = retentionHorizon(days(rule.option), nowSeconds);
        if (horizon === null) continue;
        let cursor = await this.cursors.read(rule.name);
        for (;;) {
          if (this.stopped || this.clearWaiting) return result;
          const from = cursor;
          const size = batches.size;
          const step = await batches.time(() => this.deleter.walk(rule, from, horizon, bound, size));
          result[rule.name] += step.changed;
          if (step.cursor !== cursor) await this.cursors.write(rule.name, step.cursor);
          cursor = step.cursor;
          if (step.finished) break;
          if (!(await batches.pause())) return result;
        }
      }
      return result;
    });
  }

  /** Ends clean-up after the batch in progress; resolves when it has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.tail.catch(() => undefined);
  }

  /** Runs `work` once the work before it has ended. */
  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const result = this.tail.catch(() => undefined).then(work);
    this.tail = result;
    return result;
  }

  /** The batch sizes and pauses of one piece of work (cleanup-pacing.ts). */
  private batches() {
    const batches = new PacedBatches(this.pacing);
    return {
      get size() {
        return batches.size;
      },
      time: <T>(batch: () => Promise<T>): Promise<T> => batches.time(batch),
      pause: () => this.pause(batches.pauseMs()),
    };
  }

  /** The rest between batches; false when the cleaner was stopped meanwhile. */
  private pause(ms: number): Promise<boolean> {
    if (this.stopped) return Promise.resolve(false);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.wake = null;
        resolve(!this.stopped);
      }, ms);
      this.wake = () => {
        clearTimeout(timer);
        this.wake = null;
        resolve(false);
      };
    });
  }
}

import type { Kysely } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';
import type { Database } from '../../db/schema.ts';
import { PacedBatches } from '../retention/cleanup-pacing.ts';
import { rolledUpThrough } from './rolled-up-through.ts';
import { RollupStore } from './rollup-store.ts';
import { type LogRollupTiming, rollupTimingFor } from './rollup-timing.ts';

/** Minimal logger (Fastify's satisfies it). */
interface RollupLog {
  warn(object: object, message: string): void;
}

/**
 * The master's roll-up: reads logs rows past the watermark in id order, a batch at a time, and
 * adds them to log_rollups with the watermark in one transaction (RollupStore.commit), so a crash
 * loses nothing and counts nothing twice: the next process starts from the committed watermark.
 * An adopted database with millions of rows is caught up the same way, in batches sized by time
 * with rests between them (rollup-timing.ts). Nothing here runs per relay call.
 */
export class LogRollupJob {
  private readonly store: RollupStore;
  private readonly batches: PacedBatches;
  /** Whether the last batch was full (more rows may be waiting). */
  private behind = false;
  /** Highest committed ids seen, oldest first, each with when it was seen (ms). */
  private notes: Array<{ at: number; id: number }> = [];
  private stopped = false;
  private running: Promise<void> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    kind: DatabaseKind,
    private readonly log: RollupLog,
    private readonly timing: LogRollupTiming = rollupTimingFor(kind),
    private readonly now: () => number = Date.now,
  ) {
    this.store = new RollupStore(db, kind);
    this.batches = new PacedBatches(timing.pacing);
  }

  /** The highest id the watermark may pass now (see `settleMs`); 0 while nothing has settled. */
  private async settledBound(): Promise<number> {
    const id = await this.store.maxLogId();
    if (this.timing.settleMs <= 0) return id;
    const at = this.now();
    const last = this.notes[this.notes.length - 1];
    if (last === undefined || at - last.at >= 1000) this.notes.push({ at, id });
    let settled = -1;
    while (settled + 1 < this.notes.length && at - this.notes[settled + 1]!.at >= this.timing.settleMs)
      settled++;
    if (settled < 0) return 0;
    // Older notes are passed; the newest settled one stays as the bound until a newer one settles.
    this.notes.splice(0, settled);
    return this.notes[0]!.id;
  }

  /**
   * Rolls up one batch of at most the pacing's current size; answers how many rows it counted (0:
   * nothing settled past the watermark). Only a full batch may grow the next one: a short one says
   * nothing about what a full one costs.
   */
  async runOnce(): Promise<number> {
    const limit = this.batches.size;
    const counted = await this.batches.time(
      () => this.countBatch(limit),
      (rows) => rows >= limit,
    );
    this.behind = counted >= limit;
    return counted;
  }

  private async countBatch(limit: number): Promise<number> {
    const watermark = await rolledUpThrough(this.db);
    const bound = await this.settledBound();
    if (bound <= watermark) return 0;
    return this.store.rollUp(watermark, bound, limit);
  }

  /** Runs batches back to back until one is not full (tests, a caught-up check). */
  async catchUp(): Promise<void> {
    do await this.runOnce();
    while (this.behind);
  }

  /** Runs until `stop()`: paced batches while behind, else one every idleMs. */
  start(): void {
    if (this.running) return;
    this.running = (async () => {
      while (!this.stopped) {
        try {
          await this.runOnce();
        } catch (error) {
          this.behind = false;
          this.log.warn({ err: error }, 'log roll-up failed; will retry');
        }
        if (this.stopped) break;
        await this.sleep(this.behind ? this.batches.pauseMs() : this.timing.idleMs);
      }
    })();
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, ms);
      timer.unref();
      this.wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  /** Stops after the batch in progress (which commits whole or not at all). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }
}

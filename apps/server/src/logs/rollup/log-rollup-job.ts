import type { Kysely } from 'kysely';
import { ConfigError, type DatabaseKind } from '../../config/env.ts';
import type { Database } from '../../db/schema.ts';
import { aggregateRows } from './aggregate-rows.ts';
import { rolledUpThrough } from './rolled-up-through.ts';
import { RollupStore } from './rollup-store.ts';

/** Minimal logger (Fastify's satisfies it). */
interface RollupLog {
  warn(object: object, message: string): void;
}

export interface LogRollupTiming {
  /** Rows per batch (one transaction). */
  batchRows: number;
  /** Pause between batches while catching up, so a backfill never holds the database for long. */
  pauseMs: number;
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
 * The roll-up's timing for a database, from LOG_ROLLUP_BATCH_ROWS, LOG_ROLLUP_PAUSE_MS,
 * LOG_ROLLUP_IDLE_MS and LOG_ROLLUP_SETTLE_MS when set (tests shorten them). The relay pays for
 * each batch more than for each row (side by side, 500-row batches every 2 s cost the relay about
 * 13% CPU per call, 20,000-row batches every 20 s nothing measurable), so batches are few and
 * large; the stat queries read the rows past the watermark raw, so the wait costs no accuracy.
 * On SQLite a batch runs on the connection the relay's settlements use, so a catch-up rests a
 * second after each one.
 */
export function rollupTimingFor(kind: DatabaseKind, env: NodeJS.ProcessEnv = process.env): LogRollupTiming {
  return {
    batchRows: whole(env, 'LOG_ROLLUP_BATCH_ROWS', kind === 'sqlite' ? 20_000 : 5000, 1),
    pauseMs: whole(env, 'LOG_ROLLUP_PAUSE_MS', kind === 'sqlite' ? 1000 : 50, 0),
    idleMs: whole(env, 'LOG_ROLLUP_IDLE_MS', 20_000, 1),
    settleMs: whole(env, 'LOG_ROLLUP_SETTLE_MS', kind === 'sqlite' ? 0 : 30_000, 0),
  };
}

/**
 * The master's roll-up: reads logs rows past the watermark in id order, a batch at a time, and
 * adds them to log_rollups with the watermark in one transaction (RollupStore.commit), so a crash
 * loses nothing and counts nothing twice: the next process starts from the committed watermark.
 * An adopted database with millions of rows is caught up the same way, with a pause between
 * batches. Nothing here runs per relay call.
 */
export class LogRollupJob {
  private readonly store: RollupStore;
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

  /** Rolls up one batch; answers how many rows it counted (0: nothing settled past the watermark). */
  async runOnce(): Promise<number> {
    const watermark = await rolledUpThrough(this.db);
    const bound = await this.settledBound();
    if (bound <= watermark) return 0;
    const rows = await this.store.rowsAfter(watermark, bound, this.timing.batchRows);
    const through = rows.length < this.timing.batchRows ? bound : rows[rows.length - 1]!.id;
    await this.store.commit(aggregateRows(rows), watermark, through);
    return rows.length;
  }

  /** Runs batches until one finds nothing more to count (tests, a caught-up check). */
  async catchUp(): Promise<void> {
    while ((await this.runOnce()) >= this.timing.batchRows);
  }

  /** Runs until `stop()`: batches back to back (with the pause) while behind, else every idleMs. */
  start(): void {
    if (this.running) return;
    this.running = (async () => {
      while (!this.stopped) {
        let counted = 0;
        try {
          counted = await this.runOnce();
        } catch (error) {
          this.log.warn({ err: error }, 'log roll-up failed; will retry');
        }
        if (this.stopped) break;
        await this.sleep(counted >= this.timing.batchRows ? this.timing.pauseMs : this.timing.idleMs);
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

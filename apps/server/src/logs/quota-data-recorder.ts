import type { QuotaDataIncrement, QuotaDataRepository } from './quota-data-repository.ts';

/** One charged relay call, as the dashboard counts it. */
export interface QuotaDataSample {
  userId: number;
  username: string;
  modelName: string;
  quota: number;
  /** Prompt + completion tokens. */
  tokenUsed: number;
  /** Unix seconds of the call; now when absent. */
  at?: number;
}

/** Minimal logger (Fastify's satisfies it). */
interface RecorderLog {
  warn(object: object, message: string): void;
}

const HOUR = 3600;
/** Longest wait between flushes when the interval option cannot be read. */
const DEFAULT_INTERVAL_MINUTES = 5;

/**
 * Accumulates dashboard data (quota_data) in memory, keyed user-model-hour, and adds it to the
 * database every DataExportInterval minutes and on shutdown. Recording never touches the
 * database. Flushing is an additive UPSERT, so several nodes (each with its own recorder) may
 * flush the same bucket concurrently; increments a flush fails to write go back into the map for
 * the next one (they are lost only if the process dies first, as in the reference).
 */
export class QuotaDataRecorder {
  private buckets = new Map<string, QuotaDataIncrement>();
  private flushing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(
    private readonly repository: QuotaDataRepository,
    private readonly log: RecorderLog,
  ) {}

  /** Adds one call to its bucket. */
  record(sample: QuotaDataSample): void {
    const at = sample.at ?? Math.floor(Date.now() / 1000);
    const createdAt = at - (at % HOUR);
    this.merge({
      userId: sample.userId,
      username: sample.username,
      modelName: sample.modelName,
      createdAt,
      count: 1,
      quota: sample.quota,
      tokenUsed: sample.tokenUsed,
    });
  }

  /** Buckets waiting to be written (tests, diagnostics). */
  get pending(): number {
    return this.buckets.size;
  }

  /**
   * The increments recorded here and not yet written (the dashboard adds them, so the current
   * period shows before the next flush). A batch being written is in neither place for the length
   * of its statement.
   */
  unflushed(): Iterable<QuotaDataIncrement> {
    return this.buckets.values();
  }

  private merge(increment: QuotaDataIncrement): void {
    const key = `${increment.userId}\u0000${increment.modelName}\u0000${increment.createdAt}`;
    const current = this.buckets.get(key);
    if (!current) {
      this.buckets.set(key, { ...increment });
      return;
    }
    current.count += increment.count;
    current.quota += increment.quota;
    current.tokenUsed += increment.tokenUsed;
    current.username = increment.username;
  }

  /** Writes everything accumulated so far (one flush at a time). */
  async flush(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.buckets.size === 0) return;
    const batch = [...this.buckets.values()];
    this.buckets = new Map();
    this.flushing = this.repository
      .addAll(batch)
      .then(({ failed, error }) => {
        if (failed.length === 0) return;
        this.log.warn({ err: error, buckets: failed.length }, 'quota data flush failed; will retry');
        // Newer increments merged into the same bucket keep their username; counts add up.
        const newer = this.buckets;
        this.buckets = new Map();
        for (const increment of failed) this.merge(increment);
        for (const increment of newer.values()) this.merge(increment);
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }

  /**
   * Flushes every `intervalMinutes()` minutes (read again before each wait, so an option change
   * applies from the next cycle) until `stop()`.
   */
  start(intervalMinutes: () => number): void {
    const schedule = () => {
      if (this.stopped) return;
      const minutes = intervalMinutes();
      const delay = (Number.isFinite(minutes) && minutes > 0 ? minutes : DEFAULT_INTERVAL_MINUTES) * 60_000;
      this.timer = setTimeout(() => {
        this.flush()
          .catch((error: unknown) => this.log.warn({ err: error }, 'quota data flush failed'))
          .finally(schedule);
      }, delay);
      this.timer.unref();
    };
    schedule();
  }

  /** Stops the timer and writes what is left (shutdown). */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.flush();
  }
}

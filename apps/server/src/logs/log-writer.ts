import type { FastifyBaseLogger } from 'fastify';
import type { SettlementWriter } from '../billing/settlement/settlement-writer.ts';
import type { LogRepository, NewLog } from '../db/repositories/log-repository.ts';

/**
 * Writes log rows in batches off the response path: rows queue in memory and are inserted every
 * `intervalMs` or when `batchSize` rows are waiting. `flush()` drains the queue (shutdown, tests).
 * A failed insert is retried once with the next batch; rows are never silently dropped while the
 * process lives. Consume log rows of settled calls do not come here: the settlement writer
 * (`settlements`) writes them with their counters; `flush()` drains it too. `close()` does not:
 * the settlement writer closes itself, after this writer (start/subsystems.ts).
 */
export class LogWriter {
  private queue: NewLog[] = [];
  private flushing: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly repository: LogRepository,
    private readonly log: FastifyBaseLogger,
    private readonly batchSize = 200,
    intervalMs = 500,
    readonly settlements: SettlementWriter | null = null,
  ) {
    this.timer = setInterval(() => void this.flushRows(), intervalMs);
    this.timer.unref();
  }

  /** Queues one row; never waits for the database. */
  write(row: NewLog): void {
    // Rows are built for this call by their writer: stamping in place saves a copy per request.
    if (row.created_at === undefined) row.created_at = Math.floor(Date.now() / 1000);
    this.queue.push(row);
    if (this.queue.length >= this.batchSize) void this.flushRows();
  }

  /** Writes the settled calls and inserts every row queued so far. */
  async flush(): Promise<void> {
    await this.settlements?.flush();
    await this.flushRows();
  }

  private async flushRows(): Promise<void> {
    while (this.flushing) await this.flushing;
    if (this.queue.length === 0) return;
    const batch = this.queue;
    this.queue = [];
    this.flushing = this.repository
      .insertMany(batch)
      .catch((error: unknown) => {
        this.log.error({ err: error, rows: batch.length }, 'log batch insert failed; will retry');
        this.queue = batch.concat(this.queue);
      })
      .finally(() => {
        this.flushing = null;
      });
    await this.flushing;
  }

  /** Stops the timer and writes the rows left. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flushRows();
    if (this.queue.length > 0) await this.flushRows();
  }
}

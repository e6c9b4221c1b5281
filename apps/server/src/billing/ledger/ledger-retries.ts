import type { FastifyBaseLogger } from 'fastify';

/** Waits between attempts, in milliseconds; the last one repeats for as long as the process runs. */
export const LEDGER_RETRY_DELAYS_MS: readonly number[] = [1_000, 2_000, 5_000, 10_000, 30_000, 60_000];

/** Failed attempts between two warnings about the same step (the first failure is always logged). */
const WARN_EVERY = 10;

export type LedgerLog = Pick<FastifyBaseLogger, 'error' | 'warn' | 'info'>;

interface Retry {
  timer: NodeJS.Timeout | undefined;
  attempts: number;
}

/**
 * Retries a ledger step (a settlement or a refund) that the database refused, until it is written
 * or the process stops. Each attempt must be safe to run again after a failure that might have
 * been committed after all (a connection lost after COMMIT): the billing service retries only
 * "while the row is still reserved" steps. Without this, a failed step left its reservation held
 * until the process was restarted and reconciled as dead.
 */
export class LedgerRetries {
  private readonly retries = new Map<string, Retry>();
  private stopped = false;

  constructor(
    private readonly log: LedgerLog,
    private readonly delaysMs: readonly number[] = LEDGER_RETRY_DELAYS_MS,
  ) {}

  /** Steps waiting for another attempt. */
  get size(): number {
    return this.retries.size;
  }

  /**
   * Runs `attempt` again later (the ledger row `key`, a `what` step that just failed with `error`),
   * then again after every failure with longer waits; `done` runs with its answer once it succeeds.
   */
  add<T>(
    key: string,
    what: string,
    error: unknown,
    attempt: () => Promise<T>,
    done: (answer: T) => void,
  ): void {
    if (this.retries.has(key)) return;
    if (this.stopped) {
      this.log.error(
        { err: error, reservation: key },
        `${what} failed at shutdown; the reservation is reconciled once this process is gone`,
      );
      return;
    }
    this.log.error(
      { err: error, reservation: key },
      `${what} failed; it is retried while this process runs (the reservation stays held meanwhile)`,
    );
    const retry: Retry = { timer: undefined, attempts: 0 };
    this.retries.set(key, retry);
    const schedule = () => {
      const delay = this.delaysMs[Math.min(retry.attempts, this.delaysMs.length - 1)] ?? 1_000;
      retry.timer = setTimeout(run, delay);
      retry.timer.unref();
    };
    const run = () => {
      retry.timer = undefined;
      retry.attempts += 1;
      attempt().then(
        (answer) => {
          this.retries.delete(key);
          this.log.info({ reservation: key, attempts: retry.attempts }, `${what} retried and written`);
          done(answer);
        },
        (failure: unknown) => {
          if (this.stopped) {
            this.retries.delete(key);
            return;
          }
          if (retry.attempts % WARN_EVERY === 0) {
            this.log.warn(
              { err: failure, reservation: key, attempts: retry.attempts },
              `${what} still failing; retrying`,
            );
          }
          schedule();
        },
      );
    };
    schedule();
  }

  /** Stops retrying (shutdown): what is still held is reconciled once this process is gone. */
  stop(): void {
    this.stopped = true;
    for (const retry of this.retries.values()) clearTimeout(retry.timer);
    this.retries.clear();
  }
}

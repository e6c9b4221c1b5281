import type { FastifyBaseLogger } from 'fastify';
import type { LogCleaner } from './log-cleaner.ts';

/** Time between the end of one retention run and the start of the next. */
export const RETENTION_INTERVAL_MS = 10 * 60_000;
/** The first run waits this long after start-up, so it does not add to the start's work. */
export const RETENTION_FIRST_DELAY_MS = 60_000;

export interface LogRetentionJobOptions {
  cleaner: LogCleaner;
  /** The days an option keeps logs for (0 = forever), read at each run. */
  days: (option: string) => number;
  log: FastifyBaseLogger;
  intervalMs?: number;
  firstDelayMs?: number;
}

/**
 * The master's retention schedule: a run, then the interval, then the next. A run keeps going
 * (batch, pause, batch) until every rule has reached its horizon, however many rows that is.
 * Returns the stop function, which also waits for the batch in progress.
 */
export function startLogRetentionJob(options: LogRetentionJobOptions): () => Promise<void> {
  const { cleaner, days, log } = options;
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const schedule = (delay: number) => {
    timer = setTimeout(() => void run(), delay);
    timer.unref();
  };
  const run = async () => {
    try {
      const result = await cleaner.runRetention(days);
      if (result.consume + result.error + result.detail > 0)
        log.info({ retention: result }, 'log retention run');
    } catch (error) {
      log.warn({ err: error }, 'log retention run failed');
    }
    if (!stopped) schedule(options.intervalMs ?? RETENTION_INTERVAL_MS);
  };
  schedule(options.firstDelayMs ?? RETENTION_FIRST_DELAY_MS);
  return async () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    await cleaner.stop();
  };
}

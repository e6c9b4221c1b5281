import { Redis } from 'ioredis';
import { sql } from 'kysely';
import type { AppServices } from '../app-services.ts';

/** How long one readiness check may take before it counts as failed. */
const CHECK_TIMEOUT_MS = 2_000;

/** The result of one part: `ok`, `skipped` (not configured) or why it failed (no secrets, no addresses). */
export type CheckResult = 'ok' | 'skipped' | 'timeout' | 'unreachable' | 'shutting_down';

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, CheckResult>;
}

function withTimeout(work: Promise<unknown>): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<CheckResult>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), CHECK_TIMEOUT_MS);
    timer.unref();
  });
  return Promise.race([work.then(() => 'ok' as const), timeout]).finally(() => clearTimeout(timer));
}

/**
 * Checks whether this node can serve: its databases answer a `select 1`, Redis (when configured)
 * answers PING, and the node is not shutting down. Owns its own small Redis connection so the
 * answer does not depend on the state of the rate limiter's or change bus's clients.
 */
export class ReadinessChecker {
  private shuttingDown = false;
  private readonly redis: Redis | null;

  constructor(
    private readonly services: AppServices,
    private readonly onError: (part: string, error: unknown) => void,
  ) {
    const url = services.config.redisUrl;
    this.redis = url
      ? new Redis(url, {
          maxRetriesPerRequest: 1,
          enableOfflineQueue: false,
          connectTimeout: CHECK_TIMEOUT_MS,
        })
      : null;
    // Errors surface through the PING result; log the first of a run, not every reconnect.
    let warned = false;
    this.redis?.on('error', (error) => {
      if (!warned) onError('redis', error);
      warned = true;
    });
    this.redis?.on('ready', () => {
      warned = false;
    });
  }

  /** From now on the node reports itself not ready (called when shutdown starts). */
  markShuttingDown(): void {
    this.shuttingDown = true;
  }

  private async database(name: string, handle: AppServices['database']): Promise<CheckResult> {
    return withTimeout(sql`select 1`.execute(handle.db)).catch((error: unknown) => {
      this.onError(name, error);
      return 'unreachable';
    });
  }

  private async redisPing(): Promise<CheckResult> {
    if (!this.redis) return 'skipped';
    if (this.redis.status !== 'ready') return 'unreachable';
    return withTimeout(this.redis.ping()).catch(() => 'unreachable');
  }

  /** Runs every check in parallel. */
  async check(): Promise<ReadinessReport> {
    const { database, logDatabase } = this.services;
    const [main, logs, redis] = await Promise.all([
      this.database('database', database),
      logDatabase === database
        ? Promise.resolve<CheckResult>('skipped')
        : this.database('log_database', logDatabase),
      this.redisPing(),
    ]);
    const checks: Record<string, CheckResult> = {
      database: main,
      log_database: logs,
      redis,
      shutdown: this.shuttingDown ? 'shutting_down' : 'ok',
    };
    const ready = Object.values(checks).every((result) => result === 'ok' || result === 'skipped');
    return { ready, checks };
  }

  close(): void {
    this.redis?.disconnect();
  }
}

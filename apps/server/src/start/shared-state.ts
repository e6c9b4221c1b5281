import type { FastifyBaseLogger } from 'fastify';
import { Redis } from 'ioredis';
import type { Config } from '../config/env.ts';
import type { DatabaseHandle } from '../db/database.ts';
import {
  type ChangeBus,
  createLocalChangeBus,
  createRedisChangeBus,
  trackRedisHealth,
} from '../lib/change-bus.ts';
import { createDatabaseRateLimiter } from '../rate-limit/database-rate-limiter.ts';
import {
  createMemoryRateLimiter,
  createRedisRateLimiter,
  type RateLimiter,
} from '../rate-limit/rate-limiter.ts';
import type { AppLifecycle } from './subsystems.ts';

/** What nodes share: the change bus and the rate limiters. */
export interface SharedState {
  bus: ChangeBus;
  /** Per-IP API/web limits and notices: memory per node, or Redis when configured. */
  rateLimiter: RateLimiter;
  /** ModelRequestRateLimit: Redis, else the database on PostgreSQL/MySQL, else memory (ADR-19). */
  modelRateLimiter: RateLimiter;
}

/**
 * Builds the change bus and the rate limiters, through Redis when REDIS_CONN_STRING is set, and
 * registers `bus`, `redis` (the limiters' client), `rate-limiter` and, on PostgreSQL/MySQL,
 * `model-rate-limiter` (the database limiter; the master sweeps its table). The limiters need
 * `redis`; the bus owns its own connections.
 */
export async function startSharedState(
  config: Config,
  database: DatabaseHandle,
  lifecycle: AppLifecycle,
  log: FastifyBaseLogger,
): Promise<SharedState> {
  const memoryLimiter = createMemoryRateLimiter();
  // Model request limits stay exact across nodes without Redis, and through a Redis outage,
  // on PostgreSQL/MySQL (ADR-19); on SQLite one process owns the file and memory is exact.
  const sharedLimiter =
    database.kind === 'sqlite'
      ? null
      : createDatabaseRateLimiter(database, { sweepIntervalMs: config.nodeType === 'master' ? 60_000 : 0 });
  let state: SharedState;
  if (config.redisUrl) {
    const watchRedis = trackRedisHealth(log);
    const bus = createRedisChangeBus(config.redisUrl, watchRedis);
    lifecycle.register('bus', { close: () => bus.close() });
    // Hear other nodes before serving; a Redis outage must not block start-up for long.
    await Promise.race([bus.ready, new Promise((resolve) => setTimeout(resolve, 3_000).unref())]);
    const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, enableOfflineQueue: false });
    watchRedis(redis);
    lifecycle.register('redis', { close: () => redis.disconnect() });
    const rateLimiter = createRedisRateLimiter(redis, memoryLimiter);
    state = {
      bus,
      rateLimiter,
      modelRateLimiter: sharedLimiter ? createRedisRateLimiter(redis, sharedLimiter) : rateLimiter,
    };
  } else {
    const bus = createLocalChangeBus();
    lifecycle.register('bus', { close: () => bus.close() });
    state = { bus, rateLimiter: memoryLimiter, modelRateLimiter: sharedLimiter ?? memoryLimiter };
  }
  // The Redis limiter's close closes the memory one it falls back to.
  const { rateLimiter } = state;
  const limiterNeeds = config.redisUrl ? (['redis'] as const) : [];
  lifecycle.register('rate-limiter', { needs: limiterNeeds, close: () => rateLimiter.close() });
  if (sharedLimiter) {
    lifecycle.register('model-rate-limiter', { needs: limiterNeeds, close: () => sharedLimiter.close() });
  }
  return state;
}

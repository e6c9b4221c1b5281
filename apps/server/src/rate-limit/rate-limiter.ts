import type { Redis } from 'ioredis';

/**
 * Sliding-window limiter: at most `max` admitted hits per `windowSeconds` for a key. The memory
 * store is exact for one node; the Redis store is exact across nodes (one atomic script per hit)
 * and falls back to another store while Redis is unreachable; the database store
 * (`database-rate-limiter.ts`) is exact across nodes sharing PostgreSQL or MySQL.
 */
export interface RateLimiter {
  /** Records a hit and tells whether it is allowed. Refused hits are not recorded. */
  hit(key: string, max: number, windowSeconds: number): Promise<boolean>;
  /**
   * Like `hit`, but returns a ticket (or null when refused) that `release` can take back, for
   * limits that only count hits that end well (successful requests).
   */
  acquire(key: string, max: number, windowSeconds: number): Promise<string | null>;
  /** Takes back an admitted hit (the request failed, so it does not count). */
  release(key: string, ticket: string): Promise<void>;
  close(): void;
}

let sequence = 0;
/** A ticket unique across processes (at most 64 characters, the database column). */
export const newTicket = (time: number) =>
  `${time}-${process.pid}-${sequence++}-${Math.random().toString(36).slice(2, 8)}`;

/** In-process sliding window per key; entries older than the window are dropped on each hit. */
export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, Array<{ time: number; ticket: string }>>();
  const sweeper = setInterval(() => {
    const time = now();
    for (const [key, hits] of windows) {
      const newest = hits[hits.length - 1];
      if (!newest || time - newest.time > 3_600_000) windows.delete(key);
    }
  }, 60_000);
  sweeper.unref();
  const acquire = async (key: string, max: number, windowSeconds: number): Promise<string | null> => {
    const time = now();
    const start = time - windowSeconds * 1000;
    let hits = windows.get(key);
    if (!hits) {
      hits = [];
      windows.set(key, hits);
    }
    while (hits.length > 0 && hits[0]!.time <= start) hits.shift();
    if (hits.length >= max) return null;
    const ticket = newTicket(time);
    hits.push({ time, ticket });
    return ticket;
  };
  return {
    hit: async (key, max, windowSeconds) => (await acquire(key, max, windowSeconds)) !== null,
    acquire,
    async release(key, ticket) {
      const hits = windows.get(key);
      if (!hits) return;
      const index = hits.findIndex((hit) => hit.ticket === ticket);
      if (index >= 0) hits.splice(index, 1);
    },
    close() {
      clearInterval(sweeper);
      windows.clear();
    },
  };
}

const SLIDING_WINDOW_SCRIPT = `
local key = KEYS[1]
local now = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local max = tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
if redis.call('ZCARD', key) >= max then return 0 end
redis.call('ZADD', key, now, ARGV[4])
redis.call('PEXPIRE', key, window)
return 1`;

/**
 * How a shared limiter hands hits to `fallback` while its store is unreachable: tickets the
 * fallback admitted carry `prefix` (distinct per limiter, since fallbacks nest), so their release
 * goes back to the fallback whatever state the store is in by then.
 */
export function fallbackTickets(fallback: RateLimiter, prefix: string) {
  return {
    async acquire(key: string, max: number, windowSeconds: number): Promise<string | null> {
      const ticket = await fallback.acquire(key, max, windowSeconds);
      return ticket === null ? null : `${prefix}${ticket}`;
    },
    /** Releases a fallback ticket and answers true; false when the ticket is the store's own. */
    async release(key: string, ticket: string): Promise<boolean> {
      if (!ticket.startsWith(prefix)) return false;
      await fallback.release(key, ticket.slice(prefix.length));
      return true;
    },
  };
}

/**
 * Redis sorted-set sliding window shared by every node. While Redis is unreachable, hits go to
 * `fallback` (memory: per node; the database limiter: still exact across nodes).
 */
export function createRedisRateLimiter(redis: Redis, fallback: RateLimiter): RateLimiter {
  const fallbackHits = fallbackTickets(fallback, 'fallback:');
  const acquire = async (key: string, max: number, windowSeconds: number): Promise<string | null> => {
    const time = Date.now();
    const ticket = newTicket(time);
    try {
      const allowed = await redis.eval(
        SLIDING_WINDOW_SCRIPT,
        1,
        `rateLimit:${key}`,
        time,
        windowSeconds * 1000,
        max,
        ticket,
      );
      return allowed === 1 ? ticket : null;
    } catch {
      return fallbackHits.acquire(key, max, windowSeconds);
    }
  };
  return {
    hit: async (key, max, windowSeconds) => (await acquire(key, max, windowSeconds)) !== null,
    acquire,
    async release(key, ticket) {
      if (await fallbackHits.release(key, ticket)) return;
      // Unreachable Redis: the hit stays counted until its window ends.
      await redis.zrem(`rateLimit:${key}`, ticket).catch(() => undefined);
    },
    close() {
      fallback.close();
    },
  };
}

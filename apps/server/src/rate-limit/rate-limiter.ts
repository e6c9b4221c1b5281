import type { Redis } from 'ioredis';

/**
 * Sliding-window limiter: at most `max` hits per `windowSeconds` for a key. The memory store is
 * exact for one node; the Redis store is exact across nodes (one atomic script per hit) and falls
 * back to the memory store while Redis is unreachable.
 */
export interface RateLimiter {
  /** Records a hit and tells whether it is allowed. Refused hits are not recorded. */
  hit(key: string, max: number, windowSeconds: number): Promise<boolean>;
  close(): void;
}

/** In-process sliding window (per key, timestamps in a ring that never exceeds `max`). */
export function createMemoryRateLimiter(now: () => number = Date.now): RateLimiter {
  const windows = new Map<string, number[]>();
  const sweeper = setInterval(() => {
    const time = now();
    for (const [key, hits] of windows) {
      if (hits.length === 0 || time - hits[hits.length - 1]! > 3_600_000) windows.delete(key);
    }
  }, 60_000);
  sweeper.unref();
  return {
    async hit(key, max, windowSeconds) {
      const time = now();
      const start = time - windowSeconds * 1000;
      let hits = windows.get(key);
      if (!hits) {
        hits = [];
        windows.set(key, hits);
      }
      while (hits.length > 0 && hits[0]! <= start) hits.shift();
      if (hits.length >= max) return false;
      hits.push(time);
      return true;
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

/** Redis sorted-set sliding window shared by every node. */
export function createRedisRateLimiter(redis: Redis, fallback: RateLimiter): RateLimiter {
  let sequence = 0;
  return {
    async hit(key, max, windowSeconds) {
      const time = Date.now();
      try {
        const allowed = await redis.eval(
          SLIDING_WINDOW_SCRIPT,
          1,
          `rateLimit:${key}`,
          time,
          windowSeconds * 1000,
          max,
          `${time}-${process.pid}-${sequence++}`,
        );
        return allowed === 1;
      } catch {
        return fallback.hit(key, max, windowSeconds);
      }
    },
    close() {
      fallback.close();
    },
  };
}

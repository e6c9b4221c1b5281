import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createMemoryRateLimiter, createRedisRateLimiter } from './rate-limiter.ts';

describe('memory rate limiter', () => {
  it('allows max hits per window and slides', async () => {
    let time = 1_000_000;
    const limiter = createMemoryRateLimiter(() => time);
    const results: boolean[] = [];
    for (let i = 0; i < 4; i++) results.push(await limiter.hit('ip', 3, 10));
    expect(results).toEqual([true, true, true, false]);
    time += 10_001;
    expect(await limiter.hit('ip', 3, 10)).toBe(true);
    expect(await limiter.hit('other', 3, 10)).toBe(true);
    limiter.close();
  });

  it('gives back released hits', async () => {
    const limiter = createMemoryRateLimiter();
    const first = await limiter.acquire('k', 1, 60);
    expect(first).not.toBeNull();
    expect(await limiter.acquire('k', 1, 60)).toBeNull();
    await limiter.release('k', first!);
    expect(await limiter.acquire('k', 1, 60)).not.toBeNull();
    limiter.close();
  });
});

describe('redis rate limiter (real Redis on 127.0.0.1:6379)', () => {
  const redis = new Redis('redis://127.0.0.1:6379', { maxRetriesPerRequest: 1 });
  afterAll(() => redis.disconnect());

  it('admits exactly max hits across two limiters sharing Redis', async () => {
    const key = `test-${Date.now()}-${Math.random()}`;
    const a = createRedisRateLimiter(redis, createMemoryRateLimiter());
    const b = createRedisRateLimiter(redis, createMemoryRateLimiter());
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).hit(key, 25, 60)));
    expect(results.filter(Boolean)).toHaveLength(25);
    const ticket = await a.acquire(`${key}-s`, 1, 60);
    expect(await b.acquire(`${key}-s`, 1, 60)).toBeNull();
    await b.release(`${key}-s`, ticket!);
    expect(await b.acquire(`${key}-s`, 1, 60)).not.toBeNull();
    a.close();
    b.close();
  });
});

describe('redis rate limiter while Redis is unreachable', () => {
  it('admits through the fallback and gives the fallback its released tickets back', async () => {
    // Nothing listens on port 1; no offline queue, so every command fails at once.
    const down = new Redis('redis://127.0.0.1:1', {
      maxRetriesPerRequest: 1,
      enableOfflineQueue: false,
      retryStrategy: () => null,
    });
    down.on('error', () => undefined);
    const fallback = createMemoryRateLimiter();
    const limiter = createRedisRateLimiter(down, fallback);
    const ticket = await limiter.acquire('k', 1, 60);
    expect(ticket).not.toBeNull();
    expect(await limiter.acquire('k', 1, 60)).toBeNull();
    expect(await fallback.acquire('k', 1, 60)).toBeNull();
    await limiter.release('k', ticket!);
    expect(await fallback.acquire('k', 1, 60)).not.toBeNull();
    // A ticket Redis admitted is not taken from the fallback when Redis cannot be reached.
    await limiter.release('k', '123-redis-ticket');
    expect(await limiter.acquire('k', 1, 60)).toBeNull();
    limiter.close();
    down.disconnect();
  });
});

import { describe, expect, it } from 'vitest';
import { createMemoryRateLimiter } from './rate-limiter.ts';

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
});

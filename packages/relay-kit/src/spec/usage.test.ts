import { describe, expect, it } from 'vitest';
import { createUsage, isEmptyUsage, toCount } from './usage.js';

describe('createUsage', () => {
  it('keeps total = uncached + cacheRead + cacheWrite', () => {
    const usage = createUsage({
      inputTotal: 100,
      cacheRead: 30,
      cacheWrite: 20,
      outputTotal: 10,
      reasoning: 4,
      raw: { a: 1 },
    });
    expect(usage.inputTokens).toEqual({ total: 100, uncached: 50, cacheRead: 30, cacheWrite: 20, audio: 0 });
    expect(usage.outputTokens).toEqual({ total: 10, reasoning: 4, audio: 0 });
    expect(usage.raw).toEqual({ a: 1 });
  });

  it('clamps inconsistent provider numbers', () => {
    const usage = createUsage({ inputTotal: 10, cacheRead: 8, cacheWrite: 8, outputTotal: 2, reasoning: 5 });
    expect(usage.inputTokens).toMatchObject({ uncached: 0, cacheRead: 8, cacheWrite: 2 });
    expect(usage.outputTokens.reasoning).toBe(2);
  });

  it('coerces invalid counts to 0', () => {
    expect([toCount(-1), toCount(Number.NaN), toCount('5'), toCount(2.6), toCount(null)]).toEqual([
      0, 0, 0, 3, 0,
    ]);
    expect(isEmptyUsage(createUsage({}))).toBe(true);
    expect(isEmptyUsage(createUsage({ outputTotal: 1 }))).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { computeQuota, computeReservation } from './compute-quota.ts';
import type { Price } from './price-book.ts';

const ratioPrice = (overrides: Partial<Price> = {}): Price => ({
  model: 'm',
  modelPrice: null,
  modelRatio: 1.25,
  completionRatio: 4,
  cacheRatio: 0.5,
  cacheCreationRatio: 1.25,
  groupRatio: 1,
  unpriced: false,
  ...overrides,
});
const usage = (promptTokens: number, completionTokens: number, cachedTokens = 0, cacheWriteTokens = 0) => ({
  promptTokens,
  completionTokens,
  cachedTokens,
  cacheWriteTokens,
});

describe('computeQuota', () => {
  it.each([
    // [description, price, usage, expected]
    ['gpt-4o plain', ratioPrice(), usage(1000, 500), (1000 + 500 * 4) * 1.25],
    ['group ratio 2', ratioPrice({ groupRatio: 2 }), usage(1000, 500), (1000 + 2000) * 1.25 * 2],
    ['cache read discount', ratioPrice(), usage(1000, 0, 400), (600 + 400 * 0.5) * 1.25],
    ['cache write surcharge', ratioPrice(), usage(1000, 0, 0, 200), (800 + 200 * 1.25) * 1.25],
    ['rounds half away from zero', ratioPrice({ modelRatio: 0.075, completionRatio: 4 }), usage(10, 0), 1],
    ['cheap call still costs 1', ratioPrice({ modelRatio: 0.001 }), usage(3, 0), 1],
    ['free model costs 0', ratioPrice({ modelRatio: 0 }), usage(1000, 1000), 0],
    ['no tokens costs 0', ratioPrice(), usage(0, 0), 0],
    ['per-call price', ratioPrice({ modelPrice: 0.04, groupRatio: 1.5 }), usage(1, 1), 0.04 * 500_000 * 1.5],
  ])('%s', (_name, price, billed, expected) => {
    expect(computeQuota(price, billed, 500_000)).toBe(Math.round(expected));
  });

  it('never bills more cached than prompt tokens', () => {
    expect(computeQuota(ratioPrice(), usage(100, 0, 500), 500_000)).toBe(Math.round(100 * 0.5 * 1.25));
  });

  it('handles 0.1 + 0.2 style binary noise exactly', () => {
    // 3 × 0.1 × 100 would be 30.000000000000004 in binary floating point.
    expect(computeQuota(ratioPrice({ modelRatio: 0.1, completionRatio: 1 }), usage(150, 150), 500_000)).toBe(
      30,
    );
  });
});

describe('computeReservation', () => {
  it('uses max_tokens when given, PreConsumedQuota otherwise', () => {
    expect(computeReservation(ratioPrice(), 100, 1000, 500, 500_000)).toBe(Math.round((100 + 4000) * 1.25));
    expect(computeReservation(ratioPrice(), 100, undefined, 500, 500_000)).toBe(
      Math.round((100 + 2000) * 1.25),
    );
  });
  it('reserves the full per-call price', () => {
    expect(computeReservation(ratioPrice({ modelPrice: 0.1 }), 10, undefined, 500, 500_000)).toBe(50_000);
  });
});

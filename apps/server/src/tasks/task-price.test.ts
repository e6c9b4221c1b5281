import { describe, expect, it } from 'vitest';
import type { PriceTables } from '../billing/pricing/price-book.ts';
import { taskPriceOf } from './task-price.ts';

const tables: PriceTables = {
  modelRatio: { 'gpt-4o': 1.25 },
  modelPrice: { mj_imagine: 0.1, suno_lyrics: 0.01, mj_inpaint: 0 },
  completionRatio: {},
  cacheRatio: {},
  groupRatio: { default: 1, vip: 1.5 },
};

describe('taskPriceOf', () => {
  it('multiplies the fixed price by the group ratio and QuotaPerUnit', () => {
    expect(taskPriceOf(tables, 'mj_imagine', 'default', false, 500_000)).toEqual({
      model: 'mj_imagine',
      modelPrice: 0.1,
      groupRatio: 1,
      quota: 50_000,
    });
    expect(taskPriceOf(tables, 'mj_imagine', 'vip', false, 500_000)?.quota).toBe(75_000);
    expect(taskPriceOf(tables, 'suno_lyrics', 'unknown-group', false, 500_000)?.quota).toBe(5_000);
    expect(taskPriceOf(tables, 'mj_inpaint', 'default', false, 500_000)?.quota).toBe(0);
  });

  it('refuses a model without a price unless unpriced models are allowed', () => {
    expect(taskPriceOf(tables, 'mj_pan', 'default', false, 500_000)).toBeUndefined();
    expect(taskPriceOf(tables, 'gpt-4o', 'default', false, 500_000)).toBeUndefined();
    expect(taskPriceOf(tables, 'mj_pan', 'default', true, 500_000)?.quota).toBe(50_000);
  });
});

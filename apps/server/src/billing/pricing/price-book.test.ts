import { describe, expect, it } from 'vitest';
import { completionRatioOf } from './completion-ratio.ts';
import { lookUpPrice, type PriceTables, UNPRICED_MODEL_RATIO } from './price-book.ts';

const tables: PriceTables = {
  modelRatio: { 'gpt-4o': 1.25, 'claude-3-5-sonnet-20241022': 1.5 },
  modelPrice: { 'dall-e-3': 0.04, 'gpt-4-gizmo-*': 0.1 },
  completionRatio: { 'gpt-4o': 3 },
  cacheRatio: { 'gpt-4o': 0.5 },
  groupRatio: { default: 1, vip: 0.8 },
};

describe('lookUpPrice', () => {
  it('prefers a per-call price', () => {
    expect(lookUpPrice(tables, 'dall-e-3', 'default', false)).toMatchObject({
      modelPrice: 0.04,
      modelRatio: 0,
    });
    expect(lookUpPrice(tables, 'gpt-4-gizmo-g-abc', 'default', false)).toMatchObject({ modelPrice: 0.1 });
  });
  it('uses ratios, the group ratio and the admin completion ratio over built-in rules', () => {
    expect(lookUpPrice(tables, 'gpt-4o', 'vip', false)).toMatchObject({
      modelPrice: null,
      modelRatio: 1.25,
      completionRatio: 3,
      cacheRatio: 0.5,
      groupRatio: 0.8,
    });
    expect(lookUpPrice(tables, 'claude-3-5-sonnet-20241022', 'default', false)).toMatchObject({
      completionRatio: 5,
      cacheCreationRatio: 1.25,
      cacheRatio: 1,
    });
  });
  it('refuses unpriced models unless allowed', () => {
    expect(lookUpPrice(tables, 'mystery', 'default', false)).toBeUndefined();
    expect(lookUpPrice(tables, 'mystery', 'default', true)).toMatchObject({
      modelRatio: UNPRICED_MODEL_RATIO,
      unpriced: true,
    });
  });
  it('treats an unknown group as ratio 1', () => {
    expect(lookUpPrice(tables, 'gpt-4o', 'nope', false)?.groupRatio).toBe(1);
  });
});

describe('completionRatioOf', () => {
  it.each([
    ['gpt-4o-mini', 4],
    ['gpt-4o-2024-05-13', 3],
    ['gpt-3.5-turbo', 3],
    ['gpt-3.5-turbo-16k', 4 / 3],
    ['o3-mini', 4],
    ['claude-3-haiku-20240307', 5],
    ['gemini-2.5-pro', 8],
    ['deepseek-chat', 4],
    ['text-embedding-3-small', 1],
  ])('%s → %s', (model, ratio) => {
    expect(completionRatioOf(model, {})).toBeCloseTo(ratio);
  });
  it('lets the option map override a family rule', () => {
    expect(completionRatioOf('gpt-4o', { 'gpt-4o': 2 })).toBe(2);
  });
});

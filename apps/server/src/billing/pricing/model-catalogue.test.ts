import { CHANNEL_TYPES } from '@switchyard/shared';
import { describe, expect, it } from 'vitest';
import { cacheCreationRatioOf } from './completion-ratio.ts';
import { computeQuota } from './compute-quota.ts';
import {
  DEFAULT_CACHE_RATIO,
  DEFAULT_COMPLETION_RATIO,
  DEFAULT_MODEL_PRICE,
  DEFAULT_MODEL_RATIO,
} from './default-ratios.ts';
import { MODEL_PRICES_USD, REFERENCE_MODEL_RATIOS } from './model-catalogue.ts';
import { lookUpPrice, type PriceTables } from './price-book.ts';

const QUOTA_PER_USD = 500_000;
const defaults: PriceTables = {
  modelRatio: DEFAULT_MODEL_RATIO,
  modelPrice: DEFAULT_MODEL_PRICE,
  completionRatio: DEFAULT_COMPLETION_RATIO,
  cacheRatio: DEFAULT_CACHE_RATIO,
  groupRatio: { default: 1 },
};

/** The current families every install must price out of the box. */
const REQUIRED = [
  'gpt-5',
  'gpt-5-mini',
  'gpt-5-nano',
  'gpt-5-codex',
  'gpt-4.1',
  'gpt-4.1-mini',
  'gpt-4.1-nano',
  'o3',
  'o4-mini',
  'claude-opus-4-1-20250805',
  'claude-opus-4-1',
  'claude-opus-4-20250514',
  'claude-sonnet-4-5-20250929',
  'claude-sonnet-4-5',
  'claude-sonnet-4-20250514',
  'claude-sonnet-4',
  'claude-opus-4',
  'claude-haiku-4-5-20251001',
  'claude-haiku-4-5',
  'claude-sonnet-4-6',
  'claude-opus-4-7',
  'gemini-2.5-pro',
  'gemini-2.5-flash',
  'gemini-2.5-flash-lite',
  'gemini-embedding-001',
  'text-embedding-3-small',
  'deepseek-chat',
  'deepseek-reasoner',
  'qwen3-max',
  'qwen-plus',
  'grok-4',
  'kimi-k2-0905-preview',
  'glm-4.6',
];

/** The USD cost of a usage under the default tables, through the billing formula. */
function usdOf(
  model: string,
  usage: { input: number; output: number; cacheRead?: number; cacheWrite?: number },
) {
  const price = lookUpPrice(defaults, model, 'default', false);
  if (!price) throw new Error(`${model} is not priced`);
  const cacheRead = usage.cacheRead ?? 0;
  const cacheWrite = usage.cacheWrite ?? 0;
  const quota = computeQuota(
    price,
    {
      promptTokens: usage.input + cacheRead + cacheWrite,
      completionTokens: usage.output,
      cachedTokens: cacheRead,
      cacheWriteTokens: cacheWrite,
    },
    QUOTA_PER_USD,
  );
  return quota / QUOTA_PER_USD;
}

describe('the model catalogue', () => {
  it.each(REQUIRED)('prices %s by default', (model) => {
    expect(lookUpPrice(defaults, model, 'default', false)).toMatchObject({ unpriced: false });
  });

  it('prices every model the main channel types offer to fill in', () => {
    const types = [1, 14, 17, 24, 42, 43, 48];
    const offered = CHANNEL_TYPES.filter((type) => types.includes(type.id)).flatMap(
      (type) => type.defaultModels,
    );
    const unpriced = offered.filter((model) => !lookUpPrice(defaults, model, 'default', false));
    expect(unpriced).toEqual([]);
  });

  it('lists each model once: in USD or in the reference ratio form', () => {
    const both = Object.keys(MODEL_PRICES_USD).filter((model) => model in REFERENCE_MODEL_RATIOS);
    expect(both).toEqual([]);
  });

  it.each(Object.entries(MODEL_PRICES_USD))('bills %s at its listed USD prices', (model, listing) => {
    const million = 1_000_000;
    expect(usdOf(model, { input: million, output: 0 })).toBeCloseTo(listing.input, 4);
    expect(usdOf(model, { input: 0, output: million })).toBeCloseTo(listing.output, 3);
    expect(usdOf(model, { input: 0, output: 0, cacheRead: million })).toBeCloseTo(
      listing.cacheRead ?? listing.input,
      4,
    );
    expect(usdOf(model, { input: 0, output: 0, cacheWrite: million })).toBeCloseTo(
      listing.cacheWrite ?? listing.input,
      4,
    );
    // The cache-write price a listing states is the one the billing rule applies.
    expect(cacheCreationRatioOf(model)).toBeCloseTo((listing.cacheWrite ?? listing.input) / listing.input, 9);
  });

  it('keeps the reference format: ratio = USD per 1M input ÷ 2, completion and cache as multiples', () => {
    expect(DEFAULT_MODEL_RATIO['gpt-5']).toBe(0.625);
    expect(DEFAULT_COMPLETION_RATIO['gpt-5']).toBe(8);
    expect(DEFAULT_CACHE_RATIO['gpt-5']).toBe(0.1);
    expect(DEFAULT_MODEL_RATIO['claude-sonnet-4-5-20250929']).toBe(1.5);
    expect(DEFAULT_COMPLETION_RATIO['claude-sonnet-4-5-20250929']).toBe(5);
    expect(DEFAULT_CACHE_RATIO['claude-sonnet-4-5-20250929']).toBe(0.1);
    expect(cacheCreationRatioOf('claude-sonnet-4-5-20250929')).toBe(1.25);
    expect(DEFAULT_MODEL_RATIO['gemini-2.5-flash']).toBe(0.15);
    expect(DEFAULT_COMPLETION_RATIO['gemini-2.5-flash']).toBe(8.33333);
    expect(DEFAULT_MODEL_RATIO['deepseek-chat']).toBe(0.14);
    expect(DEFAULT_COMPLETION_RATIO['deepseek-chat']).toBe(1.5);
    expect(DEFAULT_CACHE_RATIO['deepseek-chat']).toBe(0.1);
  });
});

import type { PricingEntry } from '@switchyard/shared';
import { describe, expect, it } from 'vitest';
import { displayedPrice, fuzzyMatch, pickGroup, ratioTagColor } from './price-rules';

const entry = (patch: Partial<PricingEntry>): PricingEntry => ({
  model_name: 'gpt-4o-mini',
  quota_type: 0,
  model_ratio: 0.075,
  model_price: 0,
  owner_by: '',
  completion_ratio: 4,
  enable_groups: ['default'],
  ...patch,
});

describe('pricing rules', () => {
  it('colours ratio tags: over 5 red, over 3 orange, over 1 blue', () => {
    expect([6, 5, 3.5, 3, 1.5, 1, 0.5].map(ratioTagColor)).toEqual([
      'red',
      'orange',
      'orange',
      'blue',
      'blue',
      'green',
      'green',
    ]);
  });

  it('prices tokens per 1M: ratio × 2 × group ratio, completion × completion ratio', () => {
    expect(displayedPrice(entry({}), 1)).toEqual({ kind: 'tokens', prompt: 0.15, completion: 0.6 });
    const vip = displayedPrice(entry({ model_ratio: 15, completion_ratio: 2 }), 0.5);
    expect(vip).toEqual({ kind: 'tokens', prompt: 15, completion: 30 });
  });

  it('prices per-call models as price × group ratio', () => {
    expect(displayedPrice(entry({ quota_type: 1, model_price: 0.04, model_ratio: 0 }), 2)).toEqual({
      kind: 'call',
      price: 0.08,
    });
  });

  it('matches model names fuzzily', () => {
    expect(fuzzyMatch('4omini', 'gpt-4o-mini')).toBe(true);
    expect(fuzzyMatch('GPT 4O', 'gpt-4o')).toBe(true);
    expect(fuzzyMatch('claude', 'gpt-4o')).toBe(false);
    expect(fuzzyMatch('ogp', 'gpt-4o')).toBe(false);
    expect(fuzzyMatch('', 'anything')).toBe(true);
  });

  it('applies the user group when usable, else default', () => {
    expect(pickGroup({ default: 1, vip: 0.5 }, 'vip')).toBe('vip');
    expect(pickGroup({ default: 1, vip: 0.5 }, 'svip')).toBe('default');
    expect(pickGroup({ default: 1 }, undefined)).toBe('default');
    expect(pickGroup({ other: 2 }, undefined)).toBe('other');
  });
});

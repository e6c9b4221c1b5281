import { describe, expect, it } from 'vitest';
import { imageQuota, isCharacterBilledModel } from './media-price.ts';
import type { Price } from './price-book.ts';

const price = (overrides: Partial<Price>): Price => ({
  model: 'dall-e-3',
  modelPrice: 0.04,
  modelRatio: 0,
  completionRatio: 1,
  cacheRatio: 1,
  cacheCreationRatio: 1,
  groupRatio: 1,
  unpriced: false,
  ...overrides,
});

describe('imageQuota', () => {
  it('charges the per-image price × n × quota per unit × group ratio', () => {
    expect(imageQuota(price({}), { imageCount: 2, imageSize: '1024x1024' }, 500_000)).toBe(40_000);
    expect(imageQuota(price({ groupRatio: 0.5 }), { imageCount: 1 }, 500_000)).toBe(10_000);
  });

  it('applies the size and dall-e-3 hd quality ratios', () => {
    expect(imageQuota(price({}), { imageSize: '1792x1024', imageQuality: 'hd' }, 500_000)).toBe(60_000);
    expect(imageQuota(price({}), { imageSize: '1024x1024', imageQuality: 'hd' }, 500_000)).toBe(40_000);
    expect(
      imageQuota(price({ model: 'dall-e-2', modelPrice: 0.02 }), { imageSize: '256x256' }, 500_000),
    ).toBe(4_000);
  });

  it('prices ratio-only image models at 0.0025 dollars × ratio per image (not n × ratio)', () => {
    const ratioOnly = price({ model: 'flux-dev', modelPrice: null, modelRatio: 10 });
    expect(imageQuota(ratioOnly, { imageCount: 3 }, 500_000)).toBe(37_500);
  });

  it('is free only when the price is zero', () => {
    expect(imageQuota(price({ modelPrice: 0 }), {}, 500_000)).toBe(0);
    expect(imageQuota(price({ modelPrice: 0.000_000_1 }), {}, 500_000)).toBe(1);
  });

  it('bills characters for tts models only', () => {
    expect(isCharacterBilledModel('tts-1-hd')).toBe(true);
    expect(isCharacterBilledModel('gpt-4o-mini-tts')).toBe(false);
  });
});

import type { RelayQuantities } from '@switchyard/relay-kit';
import { roundHalfAwayFromZero } from './compute-quota.ts';
import type { Price } from './price-book.ts';

/** Dollars per image for a model priced only by ratio (reference §4.5: 0.0025 × modelRatio). */
export const IMAGE_RATIO_DOLLARS = 0.0025;

/** Size multipliers of the reference (DALL·E sizes); other sizes count as 1. */
const SIZE_RATIOS: Readonly<Record<string, number>> = {
  '256x256': 0.4,
  '512x512': 0.45,
  '1024x1024': 1,
  '1024x1792': 2,
  '1792x1024': 2,
};

/** dall-e-3 `hd` costs 2× (1.5× for the tall and wide sizes, which already cost 2×). */
function qualityRatioOf(model: string, size: string, quality: string | undefined): number {
  if (!model.startsWith('dall-e-3') || quality !== 'hd') return 1;
  return size === '1024x1792' || size === '1792x1024' ? 1.5 : 2;
}

/**
 * The fixed quota of an image request: price per image (ModelPrice, or 0.0025 × modelRatio
 * dollars for ratio-priced models — the reference meant this but charged n × ratio, a bug) ×
 * size ratio × quality ratio × n × quotaPerUnit × groupRatio. At least 1 when not free.
 */
export function imageQuota(price: Price, quantities: RelayQuantities, quotaPerUnit: number): number {
  const dollarsPerImage = price.modelPrice ?? IMAGE_RATIO_DOLLARS * price.modelRatio;
  const size = quantities.imageSize ?? '1024x1024';
  const count = Math.max(1, quantities.imageCount ?? 1);
  const quota = roundHalfAwayFromZero(
    dollarsPerImage *
      (SIZE_RATIOS[size] ?? 1) *
      qualityRatioOf(price.model, size, quantities.imageQuality) *
      count *
      quotaPerUnit *
      price.groupRatio,
  );
  return dollarsPerImage > 0 && price.groupRatio > 0 && quota <= 0 ? 1 : quota;
}

/** TTS models bill the characters of `input` as prompt tokens (reference §4.5). */
export function isCharacterBilledModel(model: string): boolean {
  return model.startsWith('tts');
}

/**
 * The default price tables, in the reference gateway's ratio format, derived from the model
 * catalogue (model-catalogue.ts). They seed the ModelRatio / ModelPrice / CompletionRatio /
 * CacheRatio options, and POST /api/option/rest_model_ratio restores them.
 *
 * The format: a model ratio r bills r quota per input token, and 500,000 quota is $1, so r is the
 * USD price per 1M input tokens ÷ 2; the completion ratio is output price ÷ input price; the
 * cache ratio is the cache-hit price ÷ input price. Admin JSON replaces a whole table (defaults
 * are not merged in), as in the reference gateway.
 */
import {
  FIXED_PRICES_USD,
  MODEL_PRICES_USD,
  REFERENCE_CACHE_RATIOS,
  REFERENCE_COMPLETION_RATIOS,
  REFERENCE_MODEL_RATIOS,
} from './model-catalogue.ts';

/** Ratios are stored rounded to six significant digits (8.33333 for Gemini 2.5 Flash's 2.5 / 0.3). */
const rounded = (value: number) => Number(value.toPrecision(6));

function derive(pick: (input: number, output: number, cacheRead?: number) => number | undefined) {
  const table: Record<string, number> = {};
  for (const [model, listing] of Object.entries(MODEL_PRICES_USD)) {
    const value = pick(listing.input, listing.output, listing.cacheRead);
    if (value !== undefined) table[model] = rounded(value);
  }
  return table;
}

export const DEFAULT_MODEL_RATIO: Record<string, number> = {
  ...REFERENCE_MODEL_RATIOS,
  ...derive((input) => input / 2),
};

export const DEFAULT_MODEL_PRICE: Record<string, number> = { ...FIXED_PRICES_USD };

export const DEFAULT_COMPLETION_RATIO: Record<string, number> = {
  ...REFERENCE_COMPLETION_RATIOS,
  ...derive((input, output) => (input > 0 ? output / input : undefined)),
};

export const DEFAULT_CACHE_RATIO: Record<string, number> = {
  ...REFERENCE_CACHE_RATIOS,
  ...derive((input, _output, cacheRead) =>
    cacheRead !== undefined && input > 0 ? cacheRead / input : undefined,
  ),
};

/** The four option tables, by option key, as the reset restores them. */
export const DEFAULT_PRICE_OPTIONS = {
  ModelRatio: DEFAULT_MODEL_RATIO,
  ModelPrice: DEFAULT_MODEL_PRICE,
  CompletionRatio: DEFAULT_COMPLETION_RATIO,
  CacheRatio: DEFAULT_CACHE_RATIO,
} as const;

import { cacheCreationRatioOf, completionRatioOf } from './completion-ratio.ts';

/** Ratio billed for models without a price when unpriced models are allowed (reference §4.3). */
export const UNPRICED_MODEL_RATIO = 37.5;

/** The pricing inputs of one request, keyed by the requested (original) model name. */
export interface Price {
  model: string;
  /** Fixed price per call in dollars; when set the token ratios are not used. */
  modelPrice: number | null;
  modelRatio: number;
  completionRatio: number;
  cacheRatio: number;
  cacheCreationRatio: number;
  groupRatio: number;
  /** The model had no configured price and is billed at UNPRICED_MODEL_RATIO. */
  unpriced: boolean;
  /** A cost fixed by the request itself (image generation), charged whatever the usage says. */
  fixedQuota?: number;
}

/** The option tables a price book is built from. */
export interface PriceTables {
  modelRatio: Readonly<Record<string, number>>;
  modelPrice: Readonly<Record<string, number>>;
  completionRatio: Readonly<Record<string, number>>;
  cacheRatio: Readonly<Record<string, number>>;
  groupRatio: Readonly<Record<string, number>>;
}

/** Normalizes names the reference treats as one priced family (gizmo GPTs). */
function priceKeyOf(model: string): string {
  if (model.startsWith('gpt-4-gizmo')) return 'gpt-4-gizmo-*';
  if (model.startsWith('gpt-4o-gizmo')) return 'gpt-4o-gizmo-*';
  return model;
}

/**
 * Looks up the price of a model for a group. Returns undefined for an unpriced model unless
 * `allowUnpriced` (self-use mode or the user's opt-in), in which case the reference's 37.5 ratio
 * applies and `unpriced` is set so the log can say so.
 */
export function lookUpPrice(
  tables: PriceTables,
  model: string,
  group: string,
  allowUnpriced: boolean,
): Price | undefined {
  const key = priceKeyOf(model);
  const groupRatio = tables.groupRatio[group] ?? 1;
  const base = {
    model,
    completionRatio: completionRatioOf(key, tables.completionRatio),
    cacheRatio: tables.cacheRatio[key] ?? 1,
    cacheCreationRatio: cacheCreationRatioOf(key),
    groupRatio,
  };
  const price = tables.modelPrice[key];
  if (typeof price === 'number') return { ...base, modelPrice: price, modelRatio: 0, unpriced: false };
  const ratio = tables.modelRatio[key];
  if (typeof ratio === 'number') return { ...base, modelPrice: null, modelRatio: ratio, unpriced: false };
  if (!allowUnpriced) return undefined;
  return { ...base, modelPrice: null, modelRatio: UNPRICED_MODEL_RATIO, unpriced: true };
}

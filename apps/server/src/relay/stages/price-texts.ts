import type { Price } from '../../billing/pricing/price-book.ts';

/** What a consume log row writes of its price, as text: built once per price. */
export interface PriceTexts {
  /** The content column's start for a priced call (image prices add the call's quantities instead). */
  description: string;
  /** The `other` column's fields from "model_ratio" to "model_price", with their values. */
  ratios: string;
  cacheRatio: string;
  cacheCreationRatio: string;
}

/** A number as JSON.stringify writes it (non-finite numbers become null). */
export const jsonNumber = (value: number): string => (Number.isFinite(value) ? `${value}` : 'null');

/** By price: prices are cached and frozen (price-request.ts), so each is described once. */
const texts = new WeakMap<Price, PriceTexts>();

export function priceTextsOf(price: Price): PriceTexts {
  let found = texts.get(price);
  if (found === undefined) {
    found = {
      description:
        price.modelPrice !== null
          ? `模型价格 ${price.modelPrice.toFixed(2)}，分组倍率 ${price.groupRatio.toFixed(2)}`
          : `模型倍率 ${price.modelRatio.toFixed(2)}，补全倍率 ${price.completionRatio.toFixed(2)}，分组倍率 ${price.groupRatio.toFixed(2)}`,
      ratios:
        `"model_ratio":${jsonNumber(price.modelRatio)},"group_ratio":${jsonNumber(price.groupRatio)},` +
        `"completion_ratio":${jsonNumber(price.completionRatio)},"model_price":${jsonNumber(price.modelPrice ?? -1)}`,
      cacheRatio: jsonNumber(price.cacheRatio),
      cacheCreationRatio: jsonNumber(price.cacheCreationRatio),
    };
    texts.set(price, found);
  }
  return found;
}

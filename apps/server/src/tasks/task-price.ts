import type { PriceTables } from '../billing/pricing/price-book.ts';

/** The price of a task platform's call when the model has no ModelPrice but unpriced models are allowed. */
export const UNPRICED_TASK_PRICE = 0.1;

/** A fixed per-call price: dollars, group ratio and the quota they make. */
export interface TaskPrice {
  model: string;
  modelPrice: number;
  groupRatio: number;
  quota: number;
}

/**
 * The fixed price of a drawing or music call: `ModelPrice[model] × group ratio × QuotaPerUnit`,
 * rounded to an integer quota. A model without a ModelPrice is refused (undefined) unless
 * unpriced models are allowed (self-use mode or the user's opt-in), when it costs 0.1 USD as in
 * the reference.
 */
export function taskPriceOf(
  tables: PriceTables,
  model: string,
  group: string,
  allowUnpriced: boolean,
  quotaPerUnit: number,
): TaskPrice | undefined {
  const configured = tables.modelPrice[model];
  const modelPrice =
    typeof configured === 'number' ? configured : allowUnpriced ? UNPRICED_TASK_PRICE : undefined;
  if (modelPrice === undefined) return undefined;
  const groupRatio = tables.groupRatio[group] ?? 1;
  const quota = Math.max(0, Math.round(modelPrice * groupRatio * quotaPerUnit));
  return { model, modelPrice, groupRatio, quota };
}

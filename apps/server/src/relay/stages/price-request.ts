import { estimatePromptTokens, type RelayCall } from '@switchyard/relay-kit';
import { ErrorCode } from '@switchyard/shared';
import { computeReservation } from '../../billing/pricing/compute-quota.ts';
import { imageQuota, isCharacterBilledModel } from '../../billing/pricing/media-price.ts';
import { lookUpPrice, type Price, type PriceTables } from '../../billing/pricing/price-book.ts';
import { relayRefusal } from '../../errors/gateway-error.ts';
import type { OptionStore } from '../../options/option-store.ts';
import type { CachedUser } from '../token-cache.ts';

/** The price tables from the option store (parsed JSON is cached there until an option changes). */
export function priceTablesOf(options: OptionStore): PriceTables {
  return {
    modelRatio: options.getJson('ModelRatio') ?? {},
    modelPrice: options.getJson('ModelPrice') ?? {},
    completionRatio: options.getJson('CompletionRatio') ?? {},
    cacheRatio: options.getJson('CacheRatio') ?? {},
    groupRatio: options.getJson('GroupRatio') ?? {},
  };
}

const unpricedOptIn = new WeakMap<CachedUser, boolean>();

/** The user's `accept_unset_model_ratio_model` setting, parsed once per cached user row. */
function acceptsUnpricedModels(user: CachedUser): boolean {
  if (!user.setting) return false;
  let accepted = unpricedOptIn.get(user);
  if (accepted === undefined) {
    try {
      accepted =
        (JSON.parse(user.setting) as { accept_unset_model_ratio_model?: unknown })
          .accept_unset_model_ratio_model === true;
    } catch {
      accepted = false;
    }
    unpricedOptIn.set(user, accepted);
  }
  return accepted;
}

/**
 * Prices by model, group and unpriced-allowance, kept while the five price tables are the same
 * objects (the option store re-parses them only when an option changes), so the hot path does
 * not rebuild a price per call. Entries are frozen: callers copy before changing anything.
 */
const MAX_CACHED_PRICES = 10_000;
let cachedTables: PriceTables | null = null;
const cachedPrices = new Map<string, Readonly<Price> | null>();

function cachedPrice(options: OptionStore, model: string, group: string, allowUnpriced: boolean) {
  const tables = priceTablesOf(options);
  if (
    cachedTables === null ||
    cachedTables.modelRatio !== tables.modelRatio ||
    cachedTables.modelPrice !== tables.modelPrice ||
    cachedTables.completionRatio !== tables.completionRatio ||
    cachedTables.cacheRatio !== tables.cacheRatio ||
    cachedTables.groupRatio !== tables.groupRatio ||
    cachedPrices.size >= MAX_CACHED_PRICES
  ) {
    cachedTables = tables;
    cachedPrices.clear();
  }
  const key = `${allowUnpriced ? 1 : 0}${group}\u0000${model}`;
  let price = cachedPrices.get(key);
  if (price === undefined) {
    price = lookUpPrice(tables, model, group, allowUnpriced) ?? null;
    if (price) Object.freeze(price);
    cachedPrices.set(key, price);
  }
  return price;
}

/**
 * Completion tokens reserved for a call without max_tokens: the model's entry in
 * PreConsumedQuotaByModel (an operator reserves more for models that answer at length, which
 * bounds how far a balance can go below zero), else PreConsumedQuota.
 */
function preConsumedTokens(options: OptionStore, model: string): number {
  const byModel = options.getJson<Record<string, unknown>>('PreConsumedQuotaByModel');
  const tokens = byModel?.[model];
  return typeof tokens === 'number' && tokens >= 0 ? tokens : options.getNumber('PreConsumedQuota');
}

/** The priced call: the price, the quota to reserve, and the prompt tokens counted on demand. */
export interface PricedRequest {
  price: Price;
  reserve: number;
  /**
   * The local prompt count (tokenizer), computed on first call and kept: needed only when the
   * upstream reports no usage (or to fill in a usage chunk), never for the reservation.
   */
  promptTokens: () => number;
}

/**
 * Stage 4: prices the call by its requested model and group and computes the amount to reserve.
 * The reservation is sized from a quick, upper-leaning prompt estimate (no tokenizer: see
 * `estimatePromptTokens(…, { quick: true })`); the exact local count runs only if settlement or
 * the response needs it. Unpriced models are refused unless self-use mode or the user's opt-in
 * allows them.
 */
export function priceRequest(
  options: OptionStore,
  user: CachedUser,
  call: RelayCall,
  group: string,
): PricedRequest {
  const allowUnpriced = options.getBoolean('SelfUseModeEnabled') || acceptsUnpricedModels(user);
  const price = cachedPrice(options, call.model, group, allowUnpriced);
  if (!price) {
    const advice = user.id === 1 ? '请设置或开始自用模式' : '请联系管理员设置';
    const message = `模型 ${call.model} 倍率或价格未配置，${advice}`;
    throw relayRefusal(ErrorCode.ModelNotPriced, message, 400, 'model_price_error');
  }
  let counted: number | undefined;
  const promptTokens = () => {
    counted ??= estimatePromptTokens(call.prompt, call.model).tokens;
    return counted;
  };
  const quantities = call.quantities;
  if (call.protocol === 'openai-images' && quantities) {
    const fixedQuota = imageQuota(price, quantities, options.getNumber('QuotaPerUnit'));
    return { price: { ...price, fixedQuota }, promptTokens, reserve: fixedQuota };
  }
  if (isCharacterBilledModel(call.model) && quantities?.inputCharacters !== undefined) {
    counted = quantities.inputCharacters;
  }
  const reserveTokens = counted ?? estimatePromptTokens(call.prompt, call.model, { quick: true }).tokens;
  const reserve = computeReservation(
    price,
    reserveTokens,
    call.maxTokens,
    call.maxTokens ? 0 : preConsumedTokens(options, call.model),
    options.getNumber('QuotaPerUnit'),
  );
  return { price, promptTokens, reserve };
}

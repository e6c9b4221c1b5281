import { estimatePromptTokens, type RelayCall } from '@switchyard/relay-kit';
import { ErrorCode } from '@switchyard/shared';
import { computeReservation } from '../../billing/compute-quota.ts';
import { imageQuota, isCharacterBilledModel } from '../../billing/media-price.ts';
import { lookUpPrice, type Price, type PriceTables } from '../../billing/price-book.ts';
import { GatewayError } from '../../errors/gateway-error.ts';
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

function acceptsUnpricedModels(user: CachedUser): boolean {
  if (!user.setting) return false;
  try {
    return (
      (JSON.parse(user.setting) as { accept_unset_model_ratio_model?: unknown })
        .accept_unset_model_ratio_model === true
    );
  } catch {
    return false;
  }
}

/**
 * Stage 4: prices the call by its requested model and group, estimates the prompt locally (only
 * for ratio-priced models) and computes the amount to reserve. Unpriced models are refused unless
 * self-use mode or the user's opt-in allows them.
 */
export function priceRequest(
  options: OptionStore,
  user: CachedUser,
  call: RelayCall,
  group: string,
): { price: Price; promptEstimate: number; reserve: number } {
  const allowUnpriced = options.getBoolean('SelfUseModeEnabled') || acceptsUnpricedModels(user);
  const price = lookUpPrice(priceTablesOf(options), call.model, group, allowUnpriced);
  if (!price) {
    const advice = user.id === 1 ? '请设置或开始自用模式' : '请联系管理员设置';
    throw new GatewayError(ErrorCode.ModelNotPriced, `模型 ${call.model} 倍率或价格未配置，${advice}`, {
      status: 400,
      type: 'switchyard_error',
      wireCode: 'model_price_error',
    });
  }
  const quantities = call.quantities;
  if (call.protocol === 'openai-images' && quantities) {
    const fixedQuota = imageQuota(price, quantities, options.getNumber('QuotaPerUnit'));
    const promptEstimate = estimatePromptTokens(call.prompt, call.model).tokens;
    return { price: { ...price, fixedQuota }, promptEstimate, reserve: fixedQuota };
  }
  const promptEstimate =
    isCharacterBilledModel(call.model) && quantities?.inputCharacters !== undefined
      ? quantities.inputCharacters
      : estimatePromptTokens(call.prompt, call.model).tokens;
  const reserve = computeReservation(
    price,
    promptEstimate,
    call.maxTokens,
    options.getNumber('PreConsumedQuota'),
    options.getNumber('QuotaPerUnit'),
  );
  return { price, promptEstimate, reserve };
}

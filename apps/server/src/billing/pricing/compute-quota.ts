import type { Price } from './price-book.ts';

/** Token counts billing needs. `promptTokens` includes cached tokens (OpenAI's convention). */
export interface BilledUsage {
  promptTokens: number;
  completionTokens: number;
  /** Prompt tokens read from the provider's cache (billed at cacheRatio). */
  cachedTokens: number;
  /** Prompt tokens written to the provider's cache (billed at cacheCreationRatio). */
  cacheWriteTokens: number;
}

/** Rounds half away from zero, the reference's decimal rounding. */
export function roundHalfAwayFromZero(value: number): number {
  // Cancel binary noise such as 74.99999999999999 before rounding.
  const cleaned = Math.round(value * 1e9) / 1e9;
  return cleaned < 0 ? -Math.round(-cleaned) : Math.round(cleaned);
}

/**
 * The quota a text request costs (reference §4.5, with cache reads and writes both counted):
 * per-call: price × quotaPerUnit × groupRatio; otherwise
 * ((prompt − cached − cacheWrite) + cached × cacheRatio + cacheWrite × cacheCreationRatio
 *   + completion × completionRatio) × modelRatio × groupRatio,
 * at least 1 when the ratio is not 0, and 0 when the upstream reported no tokens at all.
 */
export function computeQuota(price: Price, usage: BilledUsage, quotaPerUnit: number): number {
  if (price.fixedQuota !== undefined) return price.fixedQuota;
  if (usage.promptTokens + usage.completionTokens === 0) return 0;
  if (price.modelPrice !== null)
    return roundHalfAwayFromZero(price.modelPrice * quotaPerUnit * price.groupRatio);
  const cached = Math.min(usage.cachedTokens, usage.promptTokens);
  const cacheWrite = Math.min(usage.cacheWriteTokens, usage.promptTokens - cached);
  const uncached = usage.promptTokens - cached - cacheWrite;
  const weighted =
    uncached +
    cached * price.cacheRatio +
    cacheWrite * price.cacheCreationRatio +
    usage.completionTokens * price.completionRatio;
  const quota = roundHalfAwayFromZero(weighted * price.modelRatio * price.groupRatio);
  if (price.modelRatio !== 0 && price.groupRatio !== 0 && quota <= 0) return 1;
  return quota;
}

/**
 * The quota reserved before the upstream call: the prompt estimate plus the completion budget
 * (max_tokens, or PreConsumedQuota tokens when the client set none), priced like a real call.
 * Unlike the reference there is no "trusted user" shortcut: every priced call reserves.
 */
export function computeReservation(
  price: Price,
  promptTokens: number,
  maxCompletionTokens: number | undefined,
  preConsumedTokens: number,
  quotaPerUnit: number,
): number {
  const completion = maxCompletionTokens && maxCompletionTokens > 0 ? maxCompletionTokens : preConsumedTokens;
  return computeQuota(
    price,
    {
      promptTokens: Math.max(promptTokens, 1),
      completionTokens: completion,
      cachedTokens: 0,
      cacheWriteTokens: 0,
    },
    quotaPerUnit,
  );
}

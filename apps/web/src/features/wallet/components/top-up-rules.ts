/** What the wallet knows about online top-up from the site status. */
export interface TopUpSettings {
  onlineEnabled: boolean;
  /** The minimum in dollars (status min_topup, default 1). */
  minTopUp: number;
  /** When true the amount is in dollars, otherwise in raw quota units. */
  displayInCurrency: boolean;
  quotaPerUnit: number;
}

/** The smallest amount the input accepts, in the unit of the amount. */
export function minimumAmount(settings: TopUpSettings): number {
  const minTopUp = settings.minTopUp > 0 ? settings.minTopUp : 1;
  return settings.displayInCurrency ? minTopUp : minTopUp * settings.quotaPerUnit;
}

export type TopUpProblem =
  | { key: 'topUp.notEnabled' }
  | { key: 'topUp.tooSmall'; minimum: number }
  | { key: 'topUp.notWhole' }
  | { key: 'topUp.notMultiple'; unit: number };

/**
 * Checks an online top-up amount before asking the server: online top-up must be enabled, the
 * amount a whole number, at least 1 and not below the minimum; in raw units a whole number of
 * dollars' worth. Returns the first problem, or null.
 */
export function checkTopUpAmount(amount: number | null, settings: TopUpSettings): TopUpProblem | null {
  if (!settings.onlineEnabled) return { key: 'topUp.notEnabled' };
  const minimum = Math.max(1, minimumAmount(settings));
  if (amount === null || !Number.isFinite(amount) || amount < minimum) {
    return { key: 'topUp.tooSmall', minimum };
  }
  if (!Number.isInteger(amount)) return { key: 'topUp.notWhole' };
  if (!settings.displayInCurrency && amount % settings.quotaPerUnit !== 0) {
    return { key: 'topUp.notMultiple', unit: settings.quotaPerUnit };
  }
  return null;
}

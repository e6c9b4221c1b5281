/** Quota units per US dollar unless the QuotaPerUnit option says otherwise. */
export const DEFAULT_QUOTA_PER_UNIT = 500_000;

/**
 * Formats a raw quota amount the way the console shows it: a dollar amount with two decimals when
 * currency display is on (raw / quotaPerUnit), otherwise the raw integer.
 */
export function formatQuota(
  quota: number,
  displayInCurrency: boolean,
  quotaPerUnit = DEFAULT_QUOTA_PER_UNIT,
): string {
  if (!displayInCurrency) return String(Math.trunc(quota));
  const perUnit = quotaPerUnit > 0 ? quotaPerUnit : DEFAULT_QUOTA_PER_UNIT;
  return `$${(quota / perUnit).toFixed(2)}`;
}

/** Converts a dollar amount to integer quota units (rounded half away from zero). */
export function dollarsToQuota(dollars: number, quotaPerUnit = DEFAULT_QUOTA_PER_UNIT): number {
  const value = dollars * quotaPerUnit;
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

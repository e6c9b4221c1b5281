import { useSiteStatus } from './site-status';

/** Quota units per US dollar unless the QuotaPerUnit option says otherwise. */
export const DEFAULT_QUOTA_PER_UNIT = 500_000;

export interface QuotaDisplay {
  displayInCurrency: boolean;
  quotaPerUnit: number;
}

/**
 * Formats a raw quota amount: '$' and 2 decimals (raw / quotaPerUnit) when currency display is on,
 * otherwise the raw integer. Same rule as packages/shared quota.ts.
 */
export function formatQuota(quota: number, display: QuotaDisplay, digits = 2): string {
  const value = Number.isFinite(quota) ? quota : 0;
  if (!display.displayInCurrency) return String(Math.trunc(value));
  const perUnit = display.quotaPerUnit > 0 ? display.quotaPerUnit : DEFAULT_QUOTA_PER_UNIT;
  return `$${(value / perUnit).toFixed(digits)}`;
}

/** The quota display settings from the site status. */
export function useQuotaDisplay(): QuotaDisplay {
  const status = useSiteStatus();
  return {
    displayInCurrency: status.display_in_currency ?? true,
    quotaPerUnit: Number(status.quota_per_unit) > 0 ? Number(status.quota_per_unit) : DEFAULT_QUOTA_PER_UNIT,
  };
}

/** React hook returning a formatter bound to the current site status. */
export function useFormatQuota(): (quota: number, digits?: number) => string {
  const display = useQuotaDisplay();
  return (quota, digits) => formatQuota(quota, display, digits);
}

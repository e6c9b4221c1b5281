import { DEFAULT_QUOTA_PER_UNIT, formatQuota as formatQuotaText } from '@switchyard/shared';
import { useSiteStatus } from './site-status';

export { DEFAULT_QUOTA_PER_UNIT, formatDollars } from '@switchyard/shared';

export interface QuotaDisplay {
  displayInCurrency: boolean;
  quotaPerUnit: number;
}

/**
 * Formats a raw quota amount: dollars (raw / quotaPerUnit, with the decimals the amount needs) when
 * currency display is on, otherwise the raw integer. Every money figure of the console goes through
 * `formatDollars` in packages/shared, this included.
 */
export function formatQuota(quota: number, display: QuotaDisplay): string {
  return formatQuotaText(quota, display.displayInCurrency, display.quotaPerUnit);
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
export function useFormatQuota(): (quota: number) => string {
  const display = useQuotaDisplay();
  return (quota) => formatQuota(quota, display);
}

/** Quota units per US dollar unless the QuotaPerUnit option says otherwise. */
export const DEFAULT_QUOTA_PER_UNIT = 500_000;

/** Decimals a money figure may carry: one quota unit is $0.000002 at the default rate. */
const MAX_DECIMALS = 6;
/** Decimals tried for amounts smaller than a millionth (a large QuotaPerUnit). */
const TINY_DECIMALS = 12;

/**
 * The one way a money figure is written: a dollar sign, at least two decimals and as many more (up
 * to six) as the amount needs, trailing zeros dropped beyond the second ($1.00, $0.0004, $2.469134);
 * an amount below a millionth keeps its first significant digit. A negative amount puts the sign
 * first (-$0.002), and an amount that rounds to zero is never negative.
 */
export function formatDollars(dollars: number): string {
  const value = Number.isFinite(dollars) ? dollars : 0;
  const magnitude = Math.abs(value);
  let decimals = MAX_DECIMALS;
  if (magnitude > 0 && magnitude < 10 ** -MAX_DECIMALS) {
    decimals = Math.min(TINY_DECIMALS, Math.ceil(-Math.log10(magnitude)));
  }
  let text = magnitude.toFixed(decimals);
  if (text.includes('.')) {
    text = text.replace(/0+$/, '');
    const fraction = text.length - text.indexOf('.') - 1;
    if (fraction < 2) text += '0'.repeat(2 - fraction);
  }
  const negative = value < 0 && /[1-9]/.test(text);
  return `${negative ? '-' : ''}$${text}`;
}

/**
 * Formats a raw quota amount the way the console shows it: dollars (raw / quotaPerUnit, written by
 * `formatDollars`) when currency display is on, otherwise the raw integer.
 */
export function formatQuota(
  quota: number,
  displayInCurrency: boolean,
  quotaPerUnit = DEFAULT_QUOTA_PER_UNIT,
): string {
  const value = Number.isFinite(quota) ? quota : 0;
  if (!displayInCurrency) return String(Math.trunc(value));
  const perUnit = quotaPerUnit > 0 ? quotaPerUnit : DEFAULT_QUOTA_PER_UNIT;
  return formatDollars(value / perUnit);
}

/** Converts a dollar amount to integer quota units (rounded half away from zero). */
export function dollarsToQuota(dollars: number, quotaPerUnit = DEFAULT_QUOTA_PER_UNIT): number {
  const value = dollars * quotaPerUnit;
  return value < 0 ? -Math.round(-value) : Math.round(value);
}

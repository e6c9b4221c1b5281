import { invalidRequest } from '../../errors/gateway-error.ts';
import type { OptionStore } from '../../options/option-store.ts';

/** Largest quota one order may credit: far below 2^53 so balances stay exact. */
export const TOP_UP_QUOTA_MAX = 1e15;

/** The options that price a top-up, read once per request. */
export interface TopUpSettings {
  /** `amount` is in dollars when true, in raw quota units otherwise. */
  displayInCurrency: boolean;
  quotaPerUnit: number;
  /** Local currency per dollar (option Price, default 7.3). */
  price: number;
  /** Smallest top-up in dollars (option MinTopUp). */
  minTopUp: number;
  /** TopupGroupRatio of the user's group; a missing or 0 ratio counts as 1. */
  groupRatio: number;
}

/** What an amount costs and credits. */
export interface TopUpQuote {
  /** Whole dollars bought: stored as `top_ups.amount`; quota credited = dollars × QuotaPerUnit. */
  dollars: number;
  /** The payable sum with two decimals, as sent to Epay and shown to the user (`"21.90"`). */
  money: string;
}

/** Reads the pricing options for a user of `group`. */
export function readTopUpSettings(options: OptionStore, group: string): TopUpSettings {
  const ratios = options.getJson<Record<string, unknown>>('TopupGroupRatio') ?? {};
  const ratio = ratios[group];
  return {
    displayInCurrency: options.getBoolean('DisplayInCurrencyEnabled'),
    quotaPerUnit: options.getNumber('QuotaPerUnit') || 500_000,
    price: options.getNumber('Price'),
    minTopUp: options.getNumber('MinTopUp'),
    groupRatio: typeof ratio === 'number' && Number.isFinite(ratio) && ratio > 0 ? ratio : 1,
  };
}

/** True when Epay is configured: PayAddress, EpayId and EpayKey are all set. */
export function isOnlineTopUpEnabled(options: OptionStore): boolean {
  return ['PayAddress', 'EpayId', 'EpayKey'].every((key) => options.get(key).trim() !== '');
}

/**
 * Prices an amount: `money = dollars × Price × TopupGroupRatio[group]`. Refuses amounts below
 * MinTopUp ('充值数量不能小于 N', N in the unit of `amount`), raw-unit amounts that are not a
 * whole number of dollars (the reference silently truncated them, charging and crediting less
 * than asked), absurdly large amounts, and sums of 0.01 or less ('充值金额过低').
 */
export function quoteTopUp(amount: number, settings: TopUpSettings): TopUpQuote {
  const { displayInCurrency, quotaPerUnit } = settings;
  const minimum = displayInCurrency ? settings.minTopUp : settings.minTopUp * quotaPerUnit;
  if (!Number.isFinite(amount) || amount < minimum) throw invalidRequest(`充值数量不能小于 ${minimum}`);
  const dollars = displayInCurrency ? amount : amount / quotaPerUnit;
  if (!Number.isInteger(dollars)) throw invalidRequest(`充值数量必须是 ${quotaPerUnit} 的整数倍`);
  if (dollars * quotaPerUnit > TOP_UP_QUOTA_MAX) throw invalidRequest('充值数量过大');
  const payMoney = dollars * settings.price * settings.groupRatio;
  if (!(payMoney > 0.01)) throw invalidRequest('充值金额过低');
  return { dollars, money: payMoney.toFixed(2) };
}

/** Money as whole cents, for comparing a paid sum with an order exactly. */
export const toCents = (money: number): number => Math.round(money * 100);

/**
 * Parses a paid sum as Epay reports it into cents (`"21.90"`, `"21.9"`, `"21"`); null when it is not a
 * plain non-negative decimal with at most two decimals.
 */
export function parseMoneyCents(text: string): number | null {
  const match = /^(\d{1,12})(?:\.(\d{1,2})0*)?$/.exec(text.trim());
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

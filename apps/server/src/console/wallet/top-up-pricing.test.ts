import { describe, expect, it } from 'vitest';
import { parseMoneyCents, quoteTopUp, type TopUpSettings, toCents } from './top-up-pricing.ts';

const CURRENCY: TopUpSettings = {
  displayInCurrency: true,
  quotaPerUnit: 500_000,
  price: 7.3,
  minTopUp: 1,
  groupRatio: 1,
};
const RAW: TopUpSettings = { ...CURRENCY, displayInCurrency: false };

const refusal = (run: () => unknown) => {
  try {
    run();
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected a refusal');
};

describe('quoteTopUp', () => {
  it('prices dollars × Price × group ratio with two decimals', () => {
    expect(quoteTopUp(3, CURRENCY)).toEqual({ dollars: 3, money: '21.90' });
    expect(quoteTopUp(10, { ...CURRENCY, groupRatio: 0.8 })).toEqual({ dollars: 10, money: '58.40' });
    expect(quoteTopUp(1, { ...CURRENCY, price: 1 })).toEqual({ dollars: 1, money: '1.00' });
  });

  it('reads raw quota units as dollars when currency display is off', () => {
    expect(quoteTopUp(1_500_000, RAW)).toEqual({ dollars: 3, money: '21.90' });
    expect(refusal(() => quoteTopUp(750_000, RAW))).toBe('充值数量必须是 500000 的整数倍');
  });

  it('refuses amounts below MinTopUp in the unit of the amount', () => {
    expect(refusal(() => quoteTopUp(4, { ...CURRENCY, minTopUp: 5 }))).toBe('充值数量不能小于 5');
    expect(refusal(() => quoteTopUp(0, CURRENCY))).toBe('充值数量不能小于 1');
    expect(refusal(() => quoteTopUp(-3, CURRENCY))).toBe('充值数量不能小于 1');
    expect(refusal(() => quoteTopUp(400_000, RAW))).toBe('充值数量不能小于 500000');
  });

  it('refuses sums of 0.01 or less and absurd amounts', () => {
    expect(refusal(() => quoteTopUp(1, { ...CURRENCY, price: 0.01 }))).toBe('充值金额过低');
    expect(refusal(() => quoteTopUp(5, { ...CURRENCY, price: 0 }))).toBe('充值金额过低');
    expect(quoteTopUp(2, { ...CURRENCY, price: 0.01 }).money).toBe('0.02');
    expect(refusal(() => quoteTopUp(3_000_000_000, CURRENCY))).toBe('充值数量过大');
  });
});

describe('money in cents', () => {
  it('parses what Epay sends', () => {
    expect(parseMoneyCents('21.90')).toBe(2190);
    expect(parseMoneyCents('21.9')).toBe(2190);
    expect(parseMoneyCents('21')).toBe(2100);
    expect(parseMoneyCents('21.900')).toBe(2190);
    expect(parseMoneyCents('0.01')).toBe(1);
    for (const bad of ['', '-1', '21.901', '1e3', 'abc', '21.', '.5', ' ', 'NaN']) {
      expect(parseMoneyCents(bad), bad).toBeNull();
    }
  });

  it('rounds stored floating sums to cents', () => {
    expect(toCents(21.9)).toBe(2190);
    expect(toCents(0.1 + 0.2)).toBe(30);
    expect(toCents(58.4)).toBe(5840);
  });
});

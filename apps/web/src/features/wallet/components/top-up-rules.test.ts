import { describe, expect, it } from 'vitest';
import { checkTopUpAmount, minimumAmount, type TopUpSettings } from './top-up-rules';

const dollars: TopUpSettings = {
  onlineEnabled: true,
  minTopUp: 5,
  displayInCurrency: true,
  quotaPerUnit: 500000,
};
const units: TopUpSettings = { ...dollars, displayInCurrency: false };

describe('top-up amount rules', () => {
  it('refuses everything while online top-up is disabled', () => {
    expect(checkTopUpAmount(100, { ...dollars, onlineEnabled: false })).toEqual({ key: 'topUp.notEnabled' });
  });

  it('enforces the minimum in dollars', () => {
    expect(minimumAmount(dollars)).toBe(5);
    expect(checkTopUpAmount(4, dollars)).toEqual({ key: 'topUp.tooSmall', minimum: 5 });
    expect(checkTopUpAmount(null, dollars)).toEqual({ key: 'topUp.tooSmall', minimum: 5 });
    expect(checkTopUpAmount(5, dollars)).toBeNull();
  });

  it('never accepts less than 1, even with a zero minimum (which counts as the default 1)', () => {
    const free = { ...dollars, minTopUp: 0 };
    expect(minimumAmount(free)).toBe(1);
    expect(checkTopUpAmount(0, free)).toEqual({ key: 'topUp.tooSmall', minimum: 1 });
    expect(checkTopUpAmount(1, free)).toBeNull();
  });

  it('wants whole numbers', () => {
    expect(checkTopUpAmount(5.5, dollars)).toEqual({ key: 'topUp.notWhole' });
  });

  it('in raw units, wants a whole number of dollars above the minimum', () => {
    expect(minimumAmount(units)).toBe(2_500_000);
    expect(checkTopUpAmount(2_000_000, units)).toEqual({ key: 'topUp.tooSmall', minimum: 2_500_000 });
    expect(checkTopUpAmount(2_600_000, units)).toEqual({ key: 'topUp.notMultiple', unit: 500000 });
    expect(checkTopUpAmount(3_000_000, units)).toBeNull();
  });
});

import { describe, expect, it } from 'vitest';
import { buildRedemptionBody, redemptionActionState, redemptionFile } from './redemption-rules';

const format = (quota: number) => `$${(quota / 500000).toFixed(2)}`;

describe('redemption rules', () => {
  it('disables enable once used and edit unless unused', () => {
    expect(redemptionActionState({ status: 1 })).toEqual({
      toggle: 'disable',
      toggleDisabled: false,
      editDisabled: false,
    });
    expect(redemptionActionState({ status: 2 })).toEqual({
      toggle: 'enable',
      toggleDisabled: false,
      editDisabled: true,
    });
    expect(redemptionActionState({ status: 3 })).toEqual({
      toggle: 'enable',
      toggleDisabled: true,
      editDisabled: true,
    });
  });

  it('names an unnamed batch after its formatted quota and parses integers', () => {
    expect(buildRedemptionBody({ name: '', quota: '100000', count: '3' }, true, format)).toEqual({
      body: { name: '$0.20', quota: 100000, count: 3 },
    });
    expect(buildRedemptionBody({ name: ' promo ', quota: 5, count: 1 }, false, format)).toEqual({
      body: { name: 'promo', quota: 5 },
    });
  });

  it('enforces 1-20 character names, positive quota and 1-100 codes', () => {
    expect(buildRedemptionBody({ name: 'x'.repeat(21), quota: 1, count: 1 }, true, format)).toEqual({
      error: 'nameTooLong',
    });
    expect(buildRedemptionBody({ name: '兑'.repeat(20), quota: 1, count: 1 }, true, format)).toHaveProperty(
      'body',
    );
    expect(buildRedemptionBody({ name: '', quota: 1, count: 1 }, false, format)).toEqual({
      error: 'nameTooLong',
    });
    expect(buildRedemptionBody({ name: 'a', quota: 0, count: 1 }, true, format)).toEqual({
      error: 'quotaInvalid',
    });
    expect(buildRedemptionBody({ name: 'a', quota: '1.5', count: 1 }, true, format)).toEqual({
      error: 'quotaInvalid',
    });
    expect(buildRedemptionBody({ name: 'a', quota: 1, count: 0 }, true, format)).toEqual({
      error: 'countInvalid',
    });
    expect(buildRedemptionBody({ name: 'a', quota: 1, count: 101 }, true, format)).toEqual({
      error: 'countInvalid',
    });
    expect(buildRedemptionBody({ name: 'a', quota: 1, count: 100 }, true, format)).toHaveProperty('body');
  });

  it('offers the codes as one code per line in a file named after the name', () => {
    expect(redemptionFile('promo/1', ['a', 'b'])).toEqual({ fileName: 'promo_1.txt', text: 'a\nb\n' });
  });
});

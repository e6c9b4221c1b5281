import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  billingBreakdown,
  firstWordColor,
  hasBillingDetails,
  latencyColor,
  parseLogOther,
  retryPath,
} from './log-rules';

describe('log rules', () => {
  afterEach(() => vi.restoreAllMocks());

  it('colours the latency: green under 101 s, orange under 300 s, red above', () => {
    expect(latencyColor(0)).toBe('green');
    expect(latencyColor(100)).toBe('green');
    expect(latencyColor(101)).toBe('orange');
    expect(latencyColor(299)).toBe('orange');
    expect(latencyColor(300)).toBe('red');
  });

  it('colours the first-word delay: green under 3 s, orange under 10 s, red above', () => {
    expect(firstWordColor(2.9)).toBe('green');
    expect(firstWordColor(3)).toBe('orange');
    expect(firstWordColor(9.99)).toBe('orange');
    expect(firstWordColor(10)).toBe('red');
  });

  it('shows billing details only for types 0 and 2', () => {
    expect([0, 1, 2, 3, 4].map(hasBillingDetails)).toEqual([true, false, true, false, false]);
  });

  it('parses other, logging unparseable text to the console only', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(parseLogOther('{"frt":120,"group":"vip"}')).toEqual({ frt: 120, group: 'vip' });
    expect(parseLogOther('')).toBeNull();
    expect(error).not.toHaveBeenCalled();
    expect(parseLogOther('{broken')).toBeNull();
    expect(parseLogOther('[1]')).toBeNull();
    expect(error).toHaveBeenCalledTimes(1);
  });

  it('shows a retry path only when more than one channel was tried', () => {
    expect(retryPath({ admin_info: { use_channel: ['3'] } })).toEqual([]);
    expect(retryPath({ admin_info: { use_channel: [3, '5'] } })).toEqual(['3', '5']);
    expect(retryPath(null)).toEqual([]);
  });

  it('computes ratio billing per 1M tokens with the group ratio', () => {
    const other = { model_ratio: 15, completion_ratio: 4, group_ratio: 0.5, model_price: -1 };
    // prompt $15/1M, completion $60/1M; 1000 prompt + 500 completion tokens.
    expect(billingBreakdown(other, 1000, 500)).toEqual({
      perCall: false,
      promptPrice: 15,
      completionPrice: 60,
      total: 0.045,
    });
  });

  it('computes per-call billing as price × group ratio', () => {
    expect(billingBreakdown({ model_price: 0.1, group_ratio: 2 }, 10, 10)).toEqual({
      perCall: true,
      promptPrice: 0.2,
      completionPrice: 0,
      total: 0.2,
    });
    expect(billingBreakdown({ frt: 1 }, 1, 1)).toBeNull();
  });
});

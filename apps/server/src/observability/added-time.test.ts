import { describe, expect, it } from 'vitest';
import { formatAddedMs } from './added-time.ts';

describe('formatAddedMs', () => {
  it('writes milliseconds with two decimals, as toFixed(2) of the rounded value', () => {
    for (const ms of [0, 0.004, 0.005, 0.01, 0.1, 0.65, 1, 1.005, 1.25, 9.999, 12.3456, 1234.5]) {
      expect(formatAddedMs(ms)).toBe((Math.round(ms * 100) / 100).toFixed(2));
    }
    expect(formatAddedMs(0.65)).toBe('0.65');
    expect(formatAddedMs(3)).toBe('3.00');
    expect(formatAddedMs(10.07)).toBe('10.07');
  });
});

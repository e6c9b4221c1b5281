import { describe, expect, it } from 'vitest';
import { dollarsToQuota, formatQuota } from './quota.ts';

describe('formatQuota', () => {
  it('shows dollars with two decimals when currency display is on', () => {
    expect(formatQuota(500_000, true)).toBe('$1.00');
    expect(formatQuota(123_456, true)).toBe('$0.25');
    expect(formatQuota(1_000_000, true, 1_000_000)).toBe('$1.00');
  });
  it('shows raw units otherwise', () => {
    expect(formatQuota(123_456, false)).toBe('123456');
  });
  it('falls back to the default unit when the option is broken', () => {
    expect(formatQuota(500_000, true, 0)).toBe('$1.00');
  });
});

describe('dollarsToQuota', () => {
  it('rounds to integers', () => {
    expect(dollarsToQuota(0.2)).toBe(100_000);
    expect(dollarsToQuota(-1.5)).toBe(-750_000);
    expect(dollarsToQuota(0.0000011)).toBe(1);
  });
});

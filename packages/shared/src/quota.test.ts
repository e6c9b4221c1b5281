import { describe, expect, it } from 'vitest';
import { dollarsToQuota, formatDollars, formatQuota } from './quota.ts';

describe('formatDollars', () => {
  it('writes zero with two decimals', () => {
    expect(formatDollars(0)).toBe('$0.00');
    expect(formatDollars(-0)).toBe('$0.00');
  });
  it('keeps at least two decimals and drops trailing zeros beyond them', () => {
    expect(formatDollars(1)).toBe('$1.00');
    expect(formatDollars(0.2)).toBe('$0.20');
    expect(formatDollars(0.15)).toBe('$0.15');
    expect(formatDollars(1.5)).toBe('$1.50');
    expect(formatDollars(0.15000000000000002)).toBe('$0.15');
  });
  it('shows tiny amounts with the decimals they need', () => {
    expect(formatDollars(0.0004)).toBe('$0.0004');
    expect(formatDollars(0.000002)).toBe('$0.000002');
    expect(formatDollars(0.000123)).toBe('$0.000123');
    expect(formatDollars(2.469134)).toBe('$2.469134');
  });
  it('rounds to six decimals, and keeps one significant digit below a millionth', () => {
    expect(formatDollars(0.1234567)).toBe('$0.123457');
    expect(formatDollars(0.0000001)).toBe('$0.0000001');
    expect(formatDollars(0.00000026)).toBe('$0.0000003');
  });
  it('puts the minus sign before the dollar sign', () => {
    expect(formatDollars(-0.002)).toBe('-$0.002');
    expect(formatDollars(-1)).toBe('-$1.00');
    expect(formatDollars(-0.0000001)).toBe('-$0.0000001');
  });
  it('never writes a negative zero', () => {
    expect(formatDollars(-1e-15)).toBe('$0.00');
  });
  it('writes large amounts in full', () => {
    expect(formatDollars(1_000_000)).toBe('$1000000.00');
    expect(formatDollars(123456.789)).toBe('$123456.789');
  });
  it('treats a non-finite amount as zero', () => {
    expect(formatDollars(Number.NaN)).toBe('$0.00');
    expect(formatDollars(Number.POSITIVE_INFINITY)).toBe('$0.00');
  });
});

describe('formatQuota', () => {
  it('shows dollars when currency display is on', () => {
    expect(formatQuota(500_000, true)).toBe('$1.00');
    expect(formatQuota(123_456, true)).toBe('$0.246912');
    expect(formatQuota(200, true)).toBe('$0.0004');
    expect(formatQuota(-1_000, true)).toBe('-$0.002');
    expect(formatQuota(0, true)).toBe('$0.00');
    expect(formatQuota(500_000_000_000, true)).toBe('$1000000.00');
  });
  it('divides by QuotaPerUnit', () => {
    expect(formatQuota(1_000_000, true, 1_000_000)).toBe('$1.00');
    expect(formatQuota(1, true, 10_000_000)).toBe('$0.0000001');
    expect(formatQuota(3, true, 1)).toBe('$3.00');
  });
  it('shows raw units otherwise', () => {
    expect(formatQuota(123_456, false)).toBe('123456');
    expect(formatQuota(-1_000, false)).toBe('-1000');
    expect(formatQuota(0, false)).toBe('0');
  });
  it('falls back to the default unit when the option is broken', () => {
    expect(formatQuota(500_000, true, 0)).toBe('$1.00');
    expect(formatQuota(500_000, true, -5)).toBe('$1.00');
  });
});

describe('dollarsToQuota', () => {
  it('rounds to integers', () => {
    expect(dollarsToQuota(0.2)).toBe(100_000);
    expect(dollarsToQuota(-1.5)).toBe(-750_000);
    expect(dollarsToQuota(0.0000011)).toBe(1);
  });
});

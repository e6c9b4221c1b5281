import { describe, expect, it } from 'vitest';
import { percentile } from './percentile.ts';

describe('percentile', () => {
  it('takes the nearest rank', () => {
    const samples = Array.from({ length: 20 }, (_, i) => 20 - i); // 20..1, unsorted
    expect(percentile(samples, 50)).toBe(10);
    expect(percentile(samples, 95)).toBe(19);
    expect(percentile(samples, 100)).toBe(20);
    expect(percentile(samples, 0)).toBe(1);
  });

  it('is NaN with no samples and the sample itself with one', () => {
    expect(percentile([], 50)).toBeNaN();
    expect(percentile([7], 95)).toBe(7);
  });
});

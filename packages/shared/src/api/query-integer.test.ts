import { describe, expect, it } from 'vitest';
import { queryInteger } from './query-integer.ts';

describe('queryInteger', () => {
  it('keeps a coerced integer and reads anything else as 0, as strconv.Atoi does', () => {
    expect(queryInteger(42)).toBe(42);
    expect(queryInteger(-3)).toBe(-3);
    expect(queryInteger(undefined)).toBe(0);
    expect(queryInteger('')).toBe(0);
    expect(queryInteger('NaN')).toBe(0);
    expect(queryInteger('1.5')).toBe(0);
  });
});

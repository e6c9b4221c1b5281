import { describe, expect, it } from 'vitest';
import { shareOneFastShape } from './hidden-class.js';

describe('shareOneFastShape', () => {
  it('accepts objects built alike with data properties, functions included', () => {
    const build = (n: number) => ({ id: n, estimate: () => n, list: [] as number[] });
    expect(shareOneFastShape(build(1), build(2), build(3))).toBe(true);
  });

  it('rejects an object literal whose getter closes over per-call state', () => {
    const build = (n: number) => ({
      id: n,
      get estimate() {
        return n;
      },
    });
    expect(shareOneFastShape(build(1), build(2))).toBe(false);
  });

  it('rejects objects whose properties come in another order', () => {
    expect(shareOneFastShape({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false);
  });
});

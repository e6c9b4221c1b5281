import { describe, expect, it } from 'vitest';
import { type RangeSplit, splitRange } from './range-split.ts';
import { DAY, HOUR } from './rollup-grains.ts';

/** How many parts of the split count second t (a bucket segment's bucket, or an edge). */
function timesCounted(split: RangeSplit, t: number): number {
  let n = 0;
  for (const segment of split.buckets) {
    const bucket = Math.floor(t / segment.span) * segment.span;
    if ((segment.from === null || bucket >= segment.from) && (segment.to === null || bucket < segment.to))
      n++;
  }
  for (const edge of split.edges) {
    if ((edge.from === null || t >= edge.from) && (edge.to === null || t < edge.to)) n++;
  }
  return n;
}

/** A small seeded generator (mulberry32), so a failure repeats. */
function seeded(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let r = Math.imul(a ^ (a >>> 15), 1 | a);
    r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
    return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
  };
}

describe('splitRange', () => {
  it('splits an aligned range into days, then hours at the ends, with no raw edges', () => {
    const from = 10 * DAY - 2 * HOUR;
    const to = 13 * DAY + 3 * HOUR;
    expect(splitRange({ from, to }, [DAY, HOUR])).toEqual({
      buckets: [
        { span: HOUR, from, to: 10 * DAY },
        { span: DAY, from: 10 * DAY, to: 13 * DAY },
        { span: HOUR, from: 13 * DAY, to },
      ],
      covered: { from, to },
      edges: [],
    });
  });

  it('reads the partial hours at both ends from raw rows', () => {
    const split = splitRange({ from: 5 * HOUR + 10, to: 7 * HOUR + 20 }, [DAY, HOUR]);
    expect(split.edges).toEqual([
      { from: 5 * HOUR + 10, to: 6 * HOUR },
      { from: 7 * HOUR, to: 7 * HOUR + 20 },
    ]);
    expect(split.buckets).toEqual([{ span: HOUR, from: 6 * HOUR, to: 7 * HOUR }]);
  });

  it('answers a range inside one bucket from raw rows only', () => {
    expect(splitRange({ from: 100, to: 200 }, [DAY, HOUR])).toEqual({
      buckets: [],
      covered: null,
      edges: [{ from: 100, to: 200 }],
    });
  });

  it('covers an unbounded side with buckets and an empty range with nothing', () => {
    expect(splitRange({ from: null, to: null }, [DAY, HOUR])).toEqual({
      buckets: [{ span: DAY, from: null, to: null }],
      covered: { from: null, to: null },
      edges: [],
    });
    const open = splitRange({ from: DAY + 30, to: null }, [DAY, HOUR]);
    expect(open.edges).toEqual([{ from: DAY + 30, to: DAY + HOUR }]);
    expect(open.buckets).toEqual([
      { span: HOUR, from: DAY + HOUR, to: 2 * DAY },
      { span: DAY, from: 2 * DAY, to: null },
    ]);
    expect(splitRange({ from: 50, to: 50 }, [DAY, HOUR])).toEqual({ buckets: [], covered: null, edges: [] });
  });

  it('counts every second of random ranges exactly once, and none outside', () => {
    const random = seeded(43);
    for (let round = 0; round < 300; round++) {
      const spans = random() < 0.5 ? [DAY, HOUR] : [DAY];
      const a = Math.floor(random() * 20 * DAY);
      const b = a + Math.floor(random() * (random() < 0.3 ? 2 * HOUR : 6 * DAY));
      const from = random() < 0.1 ? null : a;
      const to = random() < 0.1 ? null : b;
      const split = splitRange({ from, to }, spans);
      for (const segment of split.buckets) {
        if (segment.from !== null) expect(segment.from % segment.span).toBe(0);
        if (segment.to !== null) expect(segment.to % segment.span).toBe(0);
      }
      for (let probe = 0; probe < 60; probe++) {
        const t = Math.floor(random() * 30 * DAY) - DAY;
        const inside = (from === null || t >= from) && (to === null || t < to);
        expect(timesCounted(split, t), `t=${t} range=[${from}, ${to}) spans=${spans}`).toBe(inside ? 1 : 0);
      }
      for (const t of [a, b - 1, b, a - 1]) {
        const inside = (from === null || t >= from) && (to === null || t < to);
        expect(timesCounted(split, t)).toBe(inside ? 1 : 0);
      }
    }
  });
});

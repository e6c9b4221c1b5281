import { describe, expect, it } from 'vitest';
import { type RoutableChannel, seededRandom, selectChannel } from './select-channel.ts';

const channel = (id: number, priority: number, weight: number): RoutableChannel => ({ id, priority, weight });

function distribution(candidates: RoutableChannel[], runs: number, excluded = new Set<number>()) {
  const random = seededRandom(42);
  const counts = new Map<number, number>();
  for (let i = 0; i < runs; i++) {
    const picked = selectChannel(candidates, excluded, random);
    if (picked) counts.set(picked.id, (counts.get(picked.id) ?? 0) + 1);
  }
  return counts;
}

describe('selectChannel', () => {
  it('uses only the highest priority tier', () => {
    const counts = distribution([channel(1, 0, 100), channel(2, 10, 0), channel(3, 10, 0)], 2000);
    expect(counts.get(1)).toBeUndefined();
    expect(counts.get(2)! + counts.get(3)!).toBe(2000);
  });

  it('weights inside a tier with +10 smoothing (90/0 → 100:10)', () => {
    const counts = distribution([channel(1, 0, 90), channel(2, 0, 0)], 11_000);
    expect(counts.get(1)! / 11_000).toBeGreaterThan(0.88);
    expect(counts.get(1)! / 11_000).toBeLessThan(0.93);
    expect(counts.get(2)).toBeGreaterThan(0);
  });

  it('splits equal weights evenly', () => {
    const counts = distribution([channel(1, 0, 0), channel(2, 0, 0)], 10_000);
    expect(Math.abs(counts.get(1)! - counts.get(2)!)).toBeLessThan(500);
  });

  it('never picks an excluded channel and falls to the next tier when the top one is used up', () => {
    const candidates = [channel(1, 10, 0), channel(2, 10, 0), channel(3, 5, 0)];
    const random = seededRandom(7);
    expect(selectChannel(candidates, new Set([1]), random)?.id).toBe(2);
    expect(selectChannel(candidates, new Set([1, 2]), random)?.id).toBe(3);
    expect(selectChannel(candidates, new Set([1, 2, 3]), random)).toBeUndefined();
  });

  it('treats negative weights as 0 and answers undefined for no candidates', () => {
    expect(selectChannel([channel(1, 0, -5)], new Set(), Math.random)?.id).toBe(1);
    expect(selectChannel([], new Set(), Math.random)).toBeUndefined();
  });

  it('is deterministic for a seed', () => {
    const candidates = [channel(1, 0, 5), channel(2, 0, 5), channel(3, 0, 5)];
    const first = Array.from(
      { length: 20 },
      (() => {
        const r = seededRandom(3);
        return () => selectChannel(candidates, new Set(), r)!.id;
      })(),
    );
    const second = Array.from(
      { length: 20 },
      (() => {
        const r = seededRandom(3);
        return () => selectChannel(candidates, new Set(), r)!.id;
      })(),
    );
    expect(first).toEqual(second);
  });
});

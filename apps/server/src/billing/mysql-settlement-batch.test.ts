import { describe, expect, it } from 'vitest';
import { counterArguments } from './mysql-settlement-batch.ts';
import type { PendingSettlement } from './settlement-entry.ts';

const item = (
  id: string,
  userId: number,
  tokenId: number,
  channelId: number,
  charged: number,
  at = 1_700_000_000,
) => ({ id, userId, tokenId, channelId, charged, at, log: null }) satisfies PendingSettlement;

describe('counterArguments', () => {
  it('sums per user, token and channel into JSON arrays, ids ascending', () => {
    const [users, tokens, channels] = counterArguments([
      item('a', 2, 20, 5, 100, 1_700_000_001),
      item('b', 1, 10, 5, 50),
      item('c', 2, 20, 4, 7, 1_700_000_009),
      item('d', 1, 0, 0, 3),
      item('e', 3, 30, 6, 0),
    ]);
    expect(JSON.parse(users)).toEqual([
      [1, 53, 2],
      [2, 107, 2],
      [3, 0, 1],
    ]);
    // Token 0 (the playground) has no row; a free call still marks its token accessed.
    expect(JSON.parse(tokens)).toEqual([
      [10, 50, 1_700_000_000],
      [20, 107, 1_700_000_009],
      [30, 0, 1_700_000_000],
    ]);
    // Only charged calls on a real channel count.
    expect(JSON.parse(channels)).toEqual([
      [4, 7],
      [5, 150],
    ]);
  });

  it('gives empty arrays for an empty batch (the CALL still commits its deletes)', () => {
    expect(counterArguments([])).toEqual(['[]', '[]', '[]']);
  });
});

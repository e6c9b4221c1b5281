import { describe, expect, it } from 'vitest';
import type { PendingSettlement } from '../../settlement/settlement-entry.ts';
import { counterArguments } from '../mysql/mysql-ledger.ts';
import { counterStatements } from '../postgres/postgres-ledger.ts';

/** The counter texts of the settlement writer's batch on PostgreSQL (statements) and MySQL (CALL arguments). */
const item = (
  id: string,
  userId: number,
  tokenId: number,
  channelId: number,
  charged: number,
  at = 1_700_000_000,
) => ({ id, userId, tokenId, channelId, charged, at, log: null }) satisfies PendingSettlement;

describe('counterStatements', () => {
  it('sums per user, token and channel, in ascending id order, one statement each', () => {
    const text = counterStatements([
      item('a', 2, 20, 5, 100, 1_700_000_001),
      item('b', 1, 10, 5, 50),
      item('c', 2, 20, 4, 7, 1_700_000_009),
      item('d', 1, 0, 0, 3),
    ]);
    expect(text.split(';').filter(Boolean)).toEqual([
      'UPDATE users SET used_quota = used_quota + 53, request_count = request_count + 2 WHERE id = 1',
      'UPDATE users SET used_quota = used_quota + 107, request_count = request_count + 2 WHERE id = 2',
      'UPDATE tokens SET used_quota = used_quota + 50, accessed_time = 1700000000 WHERE id = 10',
      'UPDATE tokens SET used_quota = used_quota + 107, accessed_time = 1700000009 WHERE id = 20',
      'UPDATE channels SET used_quota = used_quota + 7 WHERE id = 4',
      'UPDATE channels SET used_quota = used_quota + 150 WHERE id = 5',
    ]);
    expect(text.endsWith(';')).toBe(true);
  });

  it('is empty for an empty batch', () => {
    expect(counterStatements([])).toBe('');
  });

  it('refuses a value that is not a safe integer instead of writing it into the text', () => {
    expect(() => counterStatements([item('a', 1, 1, 1, 0.5)])).toThrow(/not a safe integer/);
    expect(() => counterStatements([item('a', 1, 1, 1, 2 ** 60)])).toThrow(/not a safe integer/);
  });
});

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

import { describe, expect, it } from 'vitest';
import {
  aggregateCounters,
  encodeEntry,
  type PendingSettlement,
  pendingFromRow,
} from './settlement-entry.ts';

const settled = (over: Partial<PendingSettlement>): PendingSettlement => ({
  id: 'r',
  userId: 1,
  tokenId: 10,
  channelId: 100,
  charged: 5,
  at: 1_000,
  log: null,
  ...over,
});

describe('aggregateCounters', () => {
  it('sums used quota and requests per user, quota and last access per token, quota per channel', () => {
    const counters = aggregateCounters([
      settled({ userId: 2, tokenId: 20, channelId: 200, charged: 7, at: 1_005 }),
      settled({ charged: 3, at: 1_003 }),
      settled({ charged: 4, at: 1_001 }),
      settled({ userId: 2, tokenId: 21, channelId: 100, charged: 1, at: 999 }),
    ]);
    expect(counters.users).toEqual([
      { id: 1, quota: 7, requests: 2 },
      { id: 2, quota: 8, requests: 2 },
    ]);
    expect(counters.tokens).toEqual([
      { id: 10, quota: 7, accessedAt: 1_003 },
      { id: 20, quota: 7, accessedAt: 1_005 },
      { id: 21, quota: 1, accessedAt: 999 },
    ]);
    expect(counters.channels).toEqual([
      { id: 100, quota: 8 },
      { id: 200, quota: 7 },
    ]);
  });

  it('counts the request of a free call, but no playground token and no channel without a charge', () => {
    const counters = aggregateCounters([
      settled({ tokenId: 0, charged: 0 }),
      settled({ channelId: 0, charged: 9 }),
    ]);
    expect(counters.users).toEqual([{ id: 1, quota: 9, requests: 2 }]);
    expect(counters.tokens).toEqual([{ id: 10, quota: 9, accessedAt: 1_000 }]);
    expect(counters.channels).toEqual([]);
  });

  it('sorts ids so concurrent batches lock rows in one order', () => {
    const counters = aggregateCounters(
      [9, 3, 7].map((id) => settled({ userId: id, tokenId: id, channelId: id })),
    );
    expect(counters.users.map((user) => user.id)).toEqual([3, 7, 9]);
    expect(counters.tokens.map((token) => token.id)).toEqual([3, 7, 9]);
    expect(counters.channels.map((channel) => channel.id)).toEqual([3, 7, 9]);
  });
});

describe('settled ledger rows', () => {
  const row = {
    id: 'r1',
    user_id: 1,
    token_id: 2,
    channel_id: 3,
    charged: 40,
    created_at: 5_000_000,
  };

  it('round-trips the pending log row and settlement time through the entry column', () => {
    const log = { type: 2, user_id: 1, quota: 40, other: '{"request_id":"q"}' };
    expect(pendingFromRow({ ...row, entry: encodeEntry(1_234, log) })).toEqual({
      id: 'r1',
      userId: 1,
      tokenId: 2,
      channelId: 3,
      charged: 40,
      at: 1_234,
      log,
    });
  });

  it('still yields the counters from a missing or damaged entry', () => {
    for (const entry of [null, '', '{oops']) {
      expect(pendingFromRow({ ...row, entry })).toMatchObject({ charged: 40, at: 5_000, log: null });
    }
  });
});

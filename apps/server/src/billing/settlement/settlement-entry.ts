import type { NewLog } from '../../db/repositories/log-repository.ts';

/**
 * A settled call whose consume log row and counters are not written yet. Its ledger row (state
 * 'settled') holds the same facts, so reconciliation can finish the work after a crash.
 */
export interface PendingSettlement {
  /** The ledger row (reservations.id). */
  id: string;
  userId: number;
  tokenId: number;
  channelId: number;
  charged: number;
  /** Settlement time, Unix seconds (the token's accessed_time). */
  at: number;
  /** The consume log row, or null when consume logging is off. */
  log: NewLog | null;
  /** Set once the row is in a separate log database, so a retried batch does not write it twice. */
  logged?: boolean;
  /** Set when settle wrote the log row and counters itself (SQLite, logs in the main database). */
  written?: boolean;
}

/** The `entry` column of a settled ledger row. */
interface EntryJson {
  at: number;
  log: NewLog | null;
}

export function encodeEntry(at: number, log: NewLog | null): string {
  return JSON.stringify({ at, log } satisfies EntryJson);
}

/** A settled ledger row back to its pending work; a damaged entry still yields the counters. */
export function pendingFromRow(row: {
  id: string;
  user_id: number;
  token_id: number;
  channel_id: number;
  charged: number;
  entry: string | null;
  created_at: number;
}): PendingSettlement {
  let entry: Partial<EntryJson> = {};
  try {
    entry = JSON.parse(row.entry || '{}') as Partial<EntryJson>;
  } catch {
    entry = {};
  }
  return {
    id: row.id,
    userId: Number(row.user_id),
    tokenId: Number(row.token_id),
    channelId: Number(row.channel_id),
    charged: Number(row.charged),
    at: typeof entry.at === 'number' ? entry.at : Math.floor(Number(row.created_at) / 1000),
    log: entry.log && typeof entry.log === 'object' ? entry.log : null,
  };
}

/** Counter increments of a batch: one UPDATE per distinct user, token and channel. */
export interface CounterIncrements {
  users: Array<{ id: number; quota: number; requests: number }>;
  tokens: Array<{ id: number; quota: number; accessedAt: number }>;
  channels: Array<{ id: number; quota: number }>;
}

/**
 * Sums what a batch of settled calls adds to the counters: used quota and request count per user,
 * used quota and last access per token (token 0 is the playground: none), used quota per channel
 * (only charged calls on a real channel). Ids come sorted so concurrent batches lock rows in the
 * same order (no deadlock between two nodes' writers on MySQL/PostgreSQL).
 */
export function aggregateCounters(items: readonly PendingSettlement[]): CounterIncrements {
  const users = new Map<number, { id: number; quota: number; requests: number }>();
  const tokens = new Map<number, { id: number; quota: number; accessedAt: number }>();
  const channels = new Map<number, { id: number; quota: number }>();
  for (const item of items) {
    const user = users.get(item.userId) ?? { id: item.userId, quota: 0, requests: 0 };
    user.quota += item.charged;
    user.requests += 1;
    users.set(item.userId, user);
    if (item.tokenId > 0) {
      const token = tokens.get(item.tokenId) ?? { id: item.tokenId, quota: 0, accessedAt: 0 };
      token.quota += item.charged;
      token.accessedAt = Math.max(token.accessedAt, item.at);
      tokens.set(item.tokenId, token);
    }
    if (item.channelId > 0 && item.charged > 0) {
      const channel = channels.get(item.channelId) ?? { id: item.channelId, quota: 0 };
      channel.quota += item.charged;
      channels.set(item.channelId, channel);
    }
  }
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  return {
    users: [...users.values()].sort(byId),
    tokens: [...tokens.values()].sort(byId),
    channels: [...channels.values()].sort(byId),
  };
}

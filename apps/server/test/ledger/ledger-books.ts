import { expect } from 'vitest';
import type { DatabaseHandle } from '../../src/db/database.ts';
import type { Account } from './ledger-harness.ts';

/**
 * What the books say about one account, read straight from the tables the console and the
 * reference read: balances, the used-quota and request counters, the consume log rows in `logs`,
 * and the ledger rows still open. Read after a flush, every settled call must be in them.
 */
export interface Books {
  quota: number;
  usedQuota: number;
  requestCount: number;
  tokenRemain: number;
  tokenUsed: number;
  channelUsed: number;
  /** The account's consume log rows in `logs`, oldest first. */
  consume: Array<{ quota: number; requestId: string }>;
  /** The account's system log rows (reconciliation notes). */
  system: number;
  /** Ledger rows still open for the account's user. */
  open: number;
}

export async function readBooks(handle: DatabaseHandle, account: Account): Promise<Books> {
  const { db } = handle;
  const user = await db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', account.userId)
    .executeTakeFirstOrThrow();
  const token = await db
    .selectFrom('tokens')
    .select(['remain_quota', 'used_quota'])
    .where('id', '=', account.tokenId)
    .executeTakeFirstOrThrow();
  const channel = await db
    .selectFrom('channels')
    .select('used_quota')
    .where('id', '=', account.channelId)
    .executeTakeFirstOrThrow();
  const logs = await db
    .selectFrom('logs')
    .select(['type', 'quota', 'other'])
    .where('user_id', '=', account.userId)
    .orderBy('id')
    .execute();
  const open = await db
    .selectFrom('reservations')
    .select('id')
    .where('user_id', '=', account.userId)
    .execute();
  return {
    quota: Number(user.quota),
    usedQuota: Number(user.used_quota),
    requestCount: Number(user.request_count),
    tokenRemain: Number(token.remain_quota),
    tokenUsed: Number(token.used_quota),
    channelUsed: Number(channel.used_quota),
    consume: logs
      .filter((log) => log.type === 2)
      .map((log) => ({
        quota: Number(log.quota),
        requestId: String((JSON.parse(log.other ?? '{}') as { request_id?: unknown }).request_id ?? ''),
      })),
    system: logs.filter((log) => log.type === 4).length,
    open: open.length,
  };
}

/**
 * The books of a fresh account (counters at 0) after `charges`, the quota of each settled call:
 * the user's balance and a limited token's remaining quota down by exactly their sum, the used
 * quota of user, token and channel up by it, one request and one consume row per call carrying
 * its charge, and nothing left open.
 */
export function expectCharged(
  books: Books,
  start: { quota: number; tokenRemain: number; tokenLimited?: boolean },
  charges: number[],
): void {
  const total = charges.reduce((sum, charge) => sum + charge, 0);
  expect(books.open).toBe(0);
  expect(books.quota).toBe(start.quota - total);
  expect(books.tokenRemain).toBe(
    start.tokenLimited === false ? start.tokenRemain : start.tokenRemain - total,
  );
  expect(books.usedQuota).toBe(total);
  expect(books.tokenUsed).toBe(total);
  expect(books.channelUsed).toBe(total);
  expect(books.requestCount).toBe(charges.length);
  const byQuota = (a: number, b: number) => a - b;
  expect(books.consume.map((row) => row.quota).sort(byQuota)).toEqual([...charges].sort(byQuota));
}

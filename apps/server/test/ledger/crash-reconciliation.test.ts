import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { type Books, readBooks } from './ledger-books.ts';
import {
  type Account,
  afterEveryoneDied,
  consumeLog,
  DEAD_AFTER_MS,
  type LedgerApp,
  MANUAL_LEDGER_ENV,
  openLedgerApp,
  reconcileAsSurvivor,
  seedAccount,
} from './ledger-harness.ts';

/**
 * Crash reconciliation: a process that stops beating (killed, or stalled past the dead-after time)
 * leaves calls it held and calls it settled but had not written yet. The next process closes them:
 * every held reservation returned once, every settled call's consume row and counters written
 * once, and nothing twice when the stalled process comes back and flushes, refunds or settles
 * late, or when two processes reconcile at the same time.
 *
 * The dying process is a real app on MANUAL_LEDGER_ENV (its settled calls stay unwritten until it
 * flushes); its death is its heartbeat going stale, which is all a kill -9 leaves in the database.
 */

const START = 100_000;

describe('ledger conformance: crash reconciliation', () => {
  let dying: LedgerApp;
  let next: LedgerApp;
  let account: Account;
  const books = () => readBooks(dying.handle, account);
  const stopBeating = (instanceId: string) =>
    dying.handle.db
      .updateTable('node_instances')
      .set({ heartbeat_at: Date.now() - 2 * DEAD_AFTER_MS })
      .where('id', '=', instanceId)
      .execute();
  /** Everything but the open ledger rows and logs: the balances and counters. */
  const balances = (b: Books) => ({
    quota: b.quota,
    tokenRemain: b.tokenRemain,
    usedQuota: b.usedQuota,
    tokenUsed: b.tokenUsed,
    requestCount: b.requestCount,
    channelUsed: b.channelUsed,
  });

  beforeAll(async () => {
    dying = await openLedgerApp(MANUAL_LEDGER_ENV);
    account = await seedAccount(dying.handle, { quota: START, tokenRemain: START });
  });
  afterAll(async () => {
    await next?.close();
    await dying?.close();
  });

  it('returns a dead process’s held reservations once and writes its settled calls once, at the next start', async () => {
    const held = await dying.billing.reserve(account.payer, 3_000, 'req-held');
    const costs = [1_500, 1_200, 0];
    for (const [n, cost] of costs.entries()) {
      const reservation = await dying.billing.reserve(account.payer, 1_000, `req-settled-${n}`);
      await dying.billing.settle(
        reservation,
        cost,
        account.channelId,
        consumeLog(account, `req-settled-${n}`),
      );
    }
    const charged = costs.reduce((sum, cost) => sum + cost, 0);
    const atCrash = await books();
    expect([atCrash.quota, atCrash.tokenRemain]).toEqual([START - 3_000 - charged, START - 3_000 - charged]);

    await stopBeating(dying.instanceId);
    // The next process reconciles at start-up and writes what the dead one left on its first flush.
    next = await openLedgerApp(MANUAL_LEDGER_ENV, dying.database);
    await next.flush();
    const after = await books();
    expect(after.open).toBe(0);
    expect(balances(after)).toEqual({
      quota: START - charged,
      tokenRemain: START - charged,
      usedQuota: charged,
      tokenUsed: charged,
      requestCount: costs.length,
      channelUsed: charged,
    });
    expect(after.consume.map((row) => row.requestId).sort()).toEqual([
      'req-settled-0',
      'req-settled-1',
      'req-settled-2',
    ]);
    expect(after.consume.map((row) => row.quota).sort((a, b) => a - b)).toEqual([0, 1_200, 1_500]);
    // The returned reservation is noted once.
    expect(after.system).toBe(1);

    // The stalled process comes back: its flush, a late refund and another pass change nothing.
    await dying.flush();
    await dying.billing.refund(held);
    expect(await reconcileAsSurvivor(next.handle, next.instanceId, afterEveryoneDied())).toMatchObject({
      refunded: 0,
      settled: 0,
      completed: 0,
    });
    await next.flush();
    expect(await books()).toEqual(after);
    expect(await dying.billing.whenIdle(1_000)).toBe(true);
  });

  it('charges a late settlement of a reconciled reservation once, from the balance', async () => {
    const before = await books();
    const reservation = await dying.billing.reserve(account.payer, 4_000, 'req-late');
    expect(await reconcileAsSurvivor(next.handle, next.instanceId, afterEveryoneDied())).toMatchObject({
      refunded: 1,
    });
    expect(balances(await books())).toEqual(balances(before));
    expect(
      await dying.billing.settle(reservation, 1_700, account.channelId, consumeLog(account, 'req-late')),
    ).toEqual({ charged: 1_700 });
    await dying.flush();
    await next.flush();
    const after = await books();
    expect(after.open).toBe(0);
    expect(balances(after)).toEqual({
      quota: before.quota - 1_700,
      tokenRemain: before.tokenRemain - 1_700,
      usedQuota: before.usedQuota + 1_700,
      tokenUsed: before.tokenUsed + 1_700,
      requestCount: before.requestCount + 1,
      channelUsed: before.channelUsed + 1_700,
    });
    expect(after.consume.slice(before.consume.length)).toEqual([{ quota: 1_700, requestId: 'req-late' }]);
  });

  it('closes each dead row once when two processes reconcile while the dead one flushes', async () => {
    const before = await books();
    const held = await Promise.all(
      [1, 2, 3].map((n) => dying.billing.reserve(account.payer, 100 * n, `req-race-held-${n}`)),
    );
    const costs = [700, 800, 900];
    for (const [n, cost] of costs.entries()) {
      const reservation = await dying.billing.reserve(account.payer, 1_000, `req-race-${n}`);
      await dying.billing.settle(reservation, cost, account.channelId, consumeLog(account, `req-race-${n}`));
    }
    // Two nodes are two pools; SQLite's driver is synchronous, so a second connection in this
    // process would wait on the first one's open transaction: there both passes share one.
    const other: DatabaseHandle =
      next.handle.kind === 'sqlite' ? next.handle : openDatabase(next.database.target);
    const at = afterEveryoneDied();
    const passes = await Promise.all([
      reconcileAsSurvivor(next.handle, next.instanceId, at),
      reconcileAsSurvivor(other, 'third-process', at),
      dying.flush(),
    ]);
    if (other !== next.handle) await other.destroy();
    expect(passes[0]!.refunded + passes[1]!.refunded).toBe(3);
    await next.flush();
    await Promise.all(held.map((reservation) => dying.billing.refund(reservation)));
    await dying.flush();
    const after = await books();
    const charged = costs.reduce((sum, cost) => sum + cost, 0);
    expect(after.open).toBe(0);
    expect(balances(after)).toEqual({
      quota: before.quota - charged,
      tokenRemain: before.tokenRemain - charged,
      usedQuota: before.usedQuota + charged,
      tokenUsed: before.tokenUsed + charged,
      requestCount: before.requestCount + costs.length,
      channelUsed: before.channelUsed + charged,
    });
    expect(
      after.consume
        .slice(before.consume.length)
        .map((row) => row.requestId)
        .sort(),
    ).toEqual(['req-race-0', 'req-race-1', 'req-race-2']);
    expect(after.system - before.system).toBe(3);
  });

  it('leaves a live process’s rows alone', async () => {
    const before = await books();
    const reservation = await next.billing.reserve(account.payer, 2_500, 'req-live');
    // The passes above took every process for dead and removed its node row: `next` beats again.
    await dying.handle.db.deleteFrom('node_instances').where('id', '=', next.instanceId).execute();
    await dying.handle.db
      .insertInto('node_instances')
      .values({ id: next.instanceId, node_type: 'master', started_at: Date.now(), heartbeat_at: Date.now() })
      .execute();
    expect(await reconcileAsSurvivor(dying.handle, 'another-process')).toMatchObject({
      refunded: 0,
      settled: 0,
      completed: 0,
    });
    expect((await books()).open).toBe(1);
    await next.billing.settle(reservation, 2_000, account.channelId, consumeLog(account, 'req-live'));
    await next.flush();
    const after = await books();
    expect(after.quota).toBe(before.quota - 2_000);
    expect(after.consume.slice(before.consume.length)).toEqual([{ quota: 2_000, requestId: 'req-live' }]);
  });
});

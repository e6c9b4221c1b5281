import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingService } from '../../src/billing/billing-service.ts';
import { reconcileReservations } from '../../src/billing/reservation-ledger.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { readBooks } from './ledger-checks.ts';

/** The reservation ledger against a real database: exactly-once closing, whoever gets there first. */

const payer = { userId: 7, tokenId: 9 };
const START = 100_000;
const quietLog = { warn: () => undefined, error: () => undefined } as never;

describe('reservation ledger', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let billing: BillingService;
  const reconcile = (node: DatabaseHandle, before = Date.now() + 1) =>
    reconcileReservations({ database: node, logDatabase: node, formatQuota: String, log: quietLog }, before);

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.target);
    await migrateDatabases(handle.db as never, null);
    await handle.db
      .insertInto('users')
      .values({ id: payer.userId, username: 'ledger', quota: START, aff_code: 'ledger', access_token: null })
      .execute();
    await handle.db
      .insertInto('tokens')
      .values({
        id: payer.tokenId,
        user_id: payer.userId,
        key: 'ledgerkey',
        name: 'ledger',
        remain_quota: START,
      })
      .execute();
    billing = new BillingService(handle);
  });
  afterAll(async () => {
    await handle?.destroy();
    await database?.drop();
  });

  const tokenPayer = { ...payer, tokenUnlimited: false };

  it('writes a ledger row with the reservation and removes it with the settlement', async () => {
    const reservation = await billing.reserve(tokenPayer, 2500, 'req-settled');
    const held = await readBooks(handle, payer);
    expect(held.open).toMatchObject([
      { id: reservation.ledgerId, request_id: 'req-settled', token_limited: 1 },
    ]);
    expect(Number(held.open[0]!.amount)).toBe(2500);
    expect(held.quota).toBe(START - 2500);
    expect(billing.openCount).toBe(1);
    expect(await billing.settle(reservation, 1000, 0)).toEqual({ charged: 1000, shortfall: 0 });
    const settled = await readBooks(handle, payer);
    expect(settled.open).toEqual([]);
    expect(settled.quota).toBe(START - 1000);
    expect(settled.tokenRemain).toBe(START - 1000);
    expect(billing.openCount).toBe(0);
    expect(await billing.whenIdle(10)).toBe(true);
    // A refused reservation leaves neither a balance change nor a ledger row.
    await expect(billing.reserve(tokenPayer, START * 2, 'req-refused')).rejects.toThrow('用户额度不足');
    expect(await readBooks(handle, payer)).toMatchObject({ open: [], quota: START - 1000 });
    expect(billing.openCount).toBe(0);
    // Nothing reserved (trusted shortcut): no ledger row at all.
    const free = await billing.reserve(tokenPayer, 0, 'req-free');
    expect(free.ledgerId).toBe('');
    expect((await readBooks(handle, payer)).open).toEqual([]);
    await billing.refund(free);
  });

  it('reconciles each open reservation once when two nodes do it at the same time', async () => {
    const before = await readBooks(handle, payer);
    await handle.db
      .insertInto('reservations')
      .values(
        [1, 2, 3].map((n) => ({
          id: `orphan-${n}`,
          request_id: `req-orphan-${n}`,
          user_id: payer.userId,
          token_id: payer.tokenId,
          token_limited: 1,
          amount: 100 * n,
          created_at: Date.now() - 1000,
        })),
      )
      .execute();
    // A reservation opened after the cut-off (a live node's) is left alone.
    const live = await billing.reserve(tokenPayer, 50, 'req-live');
    // Two nodes: two pools. SQLite's driver is synchronous, so a second connection in this same
    // process would block the first one's commit; there both calls share the one connection.
    const other = database.target.kind === 'sqlite' ? handle : openDatabase(database.target);
    const cutOff = Date.now() - 500;
    const results = await Promise.all([reconcile(handle, cutOff), reconcile(other, cutOff)]);
    if (other !== handle) await other.destroy();
    expect(results.reduce((sum, result) => sum + result.refunded, 0)).toBe(3);
    const after = await readBooks(handle, payer);
    expect(after.open.map((row) => row.id)).toEqual([live.ledgerId]);
    expect(after.quota).toBe(before.quota + 600 - 50);
    expect(after.tokenRemain).toBe(before.tokenRemain + 600 - 50);
    const logs = after.system.slice(before.system.length);
    expect(logs.map((log) => Number(log.quota)).sort()).toEqual([100, 200, 300]);
    expect(logs.every((log) => log.username === 'ledger' && log.token_name === 'ledger')).toBe(true);
    await billing.refund(live);
  });

  it('refunds once: a late refund after reconciliation gives nothing back twice', async () => {
    const before = await readBooks(handle, payer);
    const reservation = await billing.reserve(tokenPayer, 4000, 'req-late-refund');
    expect(await reconcile(handle)).toEqual({ refunded: 1, settled: 0 });
    await billing.refund(reservation);
    const after = await readBooks(handle, payer);
    expect(after.quota).toBe(before.quota);
    expect(after.tokenRemain).toBe(before.tokenRemain);
    expect(after.open).toEqual([]);
  });

  it('charges the whole cost from the balance when a late settlement finds its reservation reconciled', async () => {
    const before = await readBooks(handle, payer);
    const reservation = await billing.reserve(tokenPayer, 4000, 'req-late-settle');
    expect(await reconcile(handle)).toEqual({ refunded: 1, settled: 0 });
    expect(await billing.settle(reservation, 1500, 0)).toEqual({ charged: 1500, shortfall: 0 });
    const after = await readBooks(handle, payer);
    expect(after.quota).toBe(before.quota - 1500);
    expect(after.tokenRemain).toBe(before.tokenRemain - 1500);
    expect(after.usedQuota).toBe(before.usedQuota + 1500);
    expect(after.quota + after.usedQuota).toBe(before.quota + before.usedQuota);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingService } from '../../src/billing/ledger/billing-service.ts';
import { reconcileReservations } from '../../src/billing/ledger/reservation-ledger.ts';
import { encodeEntry } from '../../src/billing/settlement/settlement-entry.ts';
import type { SettlementWriter } from '../../src/billing/settlement/settlement-writer.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { type TestDatabase, testDatabaseKind } from '../support/test-database.ts';
import { consumeLogOf, type LedgerFixture, openLedgerFixture, quietLog, readBooks } from './ledger-checks.ts';

/**
 * The reservation ledger against a real database: settled rows until the settlement writer's
 * batch (on SQLite a settlement is written whole in its commit instead, ADR-24), exactly-once closing of a dead process's rows whoever gets there first, and rows of live
 * processes left alone.
 */

const payer = { userId: 7, tokenId: 9 };
const CHANNEL = 3;
const START = 100_000;
const DEAD_AFTER = 30_000;
const consumeLog = consumeLogOf({ ...payer, channelId: CHANNEL, name: 'ledger' });
/** PostgreSQL and MySQL leave a settled row for the writer; SQLite writes a settlement whole. */
const leavesSettledRow = testDatabaseKind !== 'sqlite';

describe('reservation ledger', () => {
  let fixture: LedgerFixture;
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let billing: BillingService;
  let writer: SettlementWriter;
  const INSTANCE = 'instance-under-test';
  /** Reconciles as another live process; `at` in the future makes this test's instance dead. */
  const reconcile = (node: DatabaseHandle, at = Date.now()) =>
    reconcileReservations(
      {
        database: node,
        logDatabase: node,
        formatQuota: String,
        log: quietLog,
        instanceId: 'reconciler',
        deadAfterMs: DEAD_AFTER,
      },
      at,
    );
  const beat = () =>
    handle.db
      .updateTable('node_instances')
      .set({ heartbeat_at: Date.now() })
      .where('id', '=', INSTANCE)
      .execute();
  const channelUsed = async () =>
    Number(
      (
        await handle.db
          .selectFrom('channels')
          .select('used_quota')
          .where('id', '=', CHANNEL)
          .executeTakeFirstOrThrow()
      ).used_quota,
    );

  beforeAll(async () => {
    // Batches are written only when the test flushes.
    fixture = await openLedgerFixture(
      {
        userId: payer.userId,
        tokenId: payer.tokenId,
        channelId: CHANNEL,
        name: 'ledger',
        quota: START,
        tokenRemain: START,
      },
      { instanceId: INSTANCE },
    );
    ({ database, handle, billing, writer } = fixture);
    await handle.db
      .insertInto('node_instances')
      .values({ id: INSTANCE, node_type: 'master', started_at: Date.now(), heartbeat_at: Date.now() })
      .execute();
  });
  afterAll(() => fixture?.close());

  const tokenPayer = { ...payer, tokenUnlimited: false };

  it('keeps a settled row with its log and counters until the batch writes them', async () => {
    const reservation = await billing.reserve(tokenPayer, 2500, 'req-settled');
    const held = await readBooks(handle, payer);
    expect(held.open).toMatchObject([
      {
        id: reservation.ledgerId,
        request_id: 'req-settled',
        token_limited: 1,
        state: 'reserved',
        instance_id: INSTANCE,
      },
    ]);
    expect(Number(held.open[0]!.amount)).toBe(2500);
    expect(held.quota).toBe(START - 2500);
    expect(billing.openCount).toBe(1);
    expect(await billing.settle(reservation, 1000, CHANNEL, consumeLog('req-settled'))).toEqual({
      charged: 1000,
    });
    const settled = await readBooks(handle, payer);
    expect(settled.quota).toBe(START - 1000);
    expect(settled.tokenRemain).toBe(START - 1000);
    if (leavesSettledRow) {
      // Balances moved at once; the log row and counters wait in the settled ledger row.
      expect(settled.open).toHaveLength(1);
      expect(settled.open[0]).toMatchObject({
        id: reservation.ledgerId,
        state: 'settled',
        channel_id: CHANNEL,
      });
      expect(Number(settled.open[0]!.charged)).toBe(1000);
      expect(JSON.parse(settled.open[0]!.entry!).log).toMatchObject({ quota: 1000, type: 2 });
      expect(settled.usedQuota).toBe(0);
      expect(settled.consume).toHaveLength(0);
    } else {
      // Written whole in the settlement's commit: counters, and the log row in the journal.
      expect(settled.open).toEqual([]);
      expect(settled.usedQuota).toBe(1000);
      expect(settled.consume.map((log) => Number(log.quota))).toEqual([1000]);
    }
    expect(billing.openCount).toBe(0);
    expect(await billing.whenIdle(10)).toBe(true);
    await writer.flush();
    const written = await readBooks(handle, payer);
    expect(written.open).toEqual([]);
    expect(written.consume.map((log) => Number(log.quota))).toEqual([1000]);
    expect(written.usedQuota).toBe(1000);
    expect(written.requestCount).toBe(1);
    expect(written.tokenUsed).toBe(1000);
    expect(await channelUsed()).toBe(1000);
    // A refused reservation leaves neither a balance change nor a ledger row.
    await expect(billing.reserve(tokenPayer, START * 2, 'req-refused')).rejects.toThrow('用户额度不足');
    expect(await readBooks(handle, payer)).toMatchObject({ open: [], quota: START - 1000 });
    expect(billing.openCount).toBe(0);
    // Nothing reserved: no ledger row until settlement, which still writes log and counters.
    const free = await billing.reserve(tokenPayer, 0, 'req-free');
    expect(free.ledgerId).toBe('');
    expect((await readBooks(handle, payer)).open).toEqual([]);
    await billing.settle(free, 0, CHANNEL, consumeLog('req-free'));
    expect((await readBooks(handle, payer)).open).toMatchObject(
      leavesSettledRow ? [{ state: 'settled' }] : [],
    );
    await writer.flush();
    expect(await readBooks(handle, payer)).toMatchObject({ open: [], requestCount: 2, usedQuota: 1000 });
  });

  it('takes a cost above the reservation in full, below zero, and writes nothing off', async () => {
    const before = await readBooks(handle, payer);
    const reservation = await billing.reserve(tokenPayer, 100, 'req-short');
    const cost = before.quota + 500;
    expect(await billing.settle(reservation, cost, CHANNEL, consumeLog('req-short'))).toEqual({
      charged: cost,
    });
    await writer.flush();
    const after = await readBooks(handle, payer);
    expect(after.quota).toBe(-500);
    const log = after.consume.at(-1)!;
    expect(Number(log.quota)).toBe(cost);
    expect(JSON.parse(log.other!).shortfall_quota).toBeUndefined();
    expect(after.usedQuota).toBe(before.usedQuota + cost);
    await expect(billing.reserve(tokenPayer, 1, 'req-in-debt')).rejects.toThrow('用户额度不足');
    // Give the balance back for the next tests.
    await handle.db.updateTable('users').set({ quota: START }).where('id', '=', payer.userId).execute();
    await handle.db
      .updateTable('tokens')
      .set({ remain_quota: START })
      .where('id', '=', payer.tokenId)
      .execute();
  });

  it('reconciles each dead row once when two nodes do it at the same time, and leaves live rows alone', async () => {
    await beat();
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
          // Legacy rows (before instance ids) and a process that never deregistered.
          instance_id: n === 3 ? 'gone-process' : '',
        })),
      )
      .execute();
    // This process is alive (fresh heartbeat): its open reservation is left alone.
    const live = await billing.reserve(tokenPayer, 50, 'req-live');
    // Two nodes: two pools. SQLite's driver is synchronous, so a second connection in this same
    // process would block the first one's commit; there both calls share the one connection.
    const other = database.target.kind === 'sqlite' ? handle : openDatabase(database.target);
    const results = await Promise.all([reconcile(handle), reconcile(other)]);
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
    expect((await readBooks(handle, payer)).open).toEqual([]);
  });

  it('refunds once: a late refund after reconciliation gives nothing back twice', async () => {
    const before = await readBooks(handle, payer);
    const reservation = await billing.reserve(tokenPayer, 4000, 'req-late-refund');
    expect(await reconcile(handle)).toMatchObject({ refunded: 0, settled: 0, completed: 0 });
    // Its process missed heartbeats for longer than the limit: taken for dead.
    expect(await reconcile(handle, Date.now() + DEAD_AFTER + 1000)).toMatchObject({ refunded: 1 });
    await billing.refund(reservation);
    const after = await readBooks(handle, payer);
    expect(after.quota).toBe(before.quota);
    expect(after.tokenRemain).toBe(before.tokenRemain);
    expect(after.open).toEqual([]);
  });

  it('charges the whole cost from the balance when a late settlement finds its reservation reconciled', async () => {
    await handle.db
      .insertInto('node_instances')
      .values({ id: INSTANCE, node_type: 'master', started_at: Date.now(), heartbeat_at: Date.now() })
      .execute();
    const before = await readBooks(handle, payer);
    const reservation = await billing.reserve(tokenPayer, 4000, 'req-late-settle');
    expect(await reconcile(handle, Date.now() + DEAD_AFTER + 1000)).toMatchObject({ refunded: 1 });
    expect(await billing.settle(reservation, 1500, CHANNEL, consumeLog('req-late-settle'))).toEqual({
      charged: 1500,
    });
    await writer.flush();
    const after = await readBooks(handle, payer);
    expect(after.open).toEqual([]);
    expect(after.quota).toBe(before.quota - 1500);
    expect(after.tokenRemain).toBe(before.tokenRemain - 1500);
    expect(after.usedQuota).toBe(before.usedQuota + 1500);
    expect(after.loggedQuota).toBe(before.loggedQuota + 1500);
    expect(after.quota + after.usedQuota).toBe(before.quota + before.usedQuota);
  });

  it('writes a dead process’s settled rows once: the sweep and its writer racing never double them', async () => {
    await handle.db
      .insertInto('node_instances')
      .values({ id: INSTANCE, node_type: 'master', started_at: Date.now(), heartbeat_at: Date.now() })
      .execute();
    const before = await readBooks(handle, payer);
    const channelBefore = await channelUsed();
    const costs = [700, 800, 900];
    for (const [index, cost] of costs.entries()) {
      const reservation = await billing.reserve(tokenPayer, 1000, `req-dead-${index}`);
      if (leavesSettledRow) {
        await billing.settle(reservation, cost, CHANNEL, consumeLog(`req-dead-${index}`));
        continue;
      }
      // SQLite writes a settlement whole; the row and balance as a settlement that left its row
      // for a batch leaves them (a process of a build that did, killed before its batch).
      const at = Math.floor(Date.now() / 1000);
      const log = { ...consumeLog(`req-dead-${index}`)(cost), created_at: at };
      await handle.db
        .updateTable('reservations')
        .set({ state: 'settled', charged: cost, channel_id: CHANNEL, entry: encodeEntry(at, log) })
        .where('id', '=', reservation.ledgerId)
        .execute();
      await billing.refund(reservation);
      const moved = await readBooks(handle, payer);
      await handle.db
        .updateTable('users')
        .set({ quota: moved.quota + 1000 - cost })
        .where('id', '=', payer.userId)
        .execute();
      await handle.db
        .updateTable('tokens')
        .set({ remain_quota: moved.tokenRemain + 1000 - cost })
        .where('id', '=', payer.tokenId)
        .execute();
    }
    expect((await readBooks(handle, payer)).open.map((row) => row.state)).toEqual([
      'settled',
      'settled',
      'settled',
    ]);
    // A live process's settled rows are left alone.
    expect(await reconcile(handle)).toMatchObject({ completed: 0 });
    const other = database.target.kind === 'sqlite' ? handle : openDatabase(database.target);
    const future = Date.now() + DEAD_AFTER + 1000;
    const [first, second] = await Promise.all([
      reconcile(handle, future),
      reconcile(other, future),
      writer.flush(),
    ]);
    if (other !== handle) await other.destroy();
    const after = await readBooks(handle, payer);
    expect(after.open).toEqual([]);
    expect(first!.completed + second!.completed).toBeLessThanOrEqual(3);
    const newLogs = after.consume.slice(before.consume.length);
    expect(newLogs.map((log) => JSON.parse(log.other!).request_id).sort()).toEqual([
      'req-dead-0',
      'req-dead-1',
      'req-dead-2',
    ]);
    const total = costs.reduce((sum, cost) => sum + cost, 0);
    expect(after.quota).toBe(before.quota - total);
    expect(after.usedQuota).toBe(before.usedQuota + total);
    expect(after.tokenUsed).toBe(before.tokenUsed + total);
    expect(after.requestCount).toBe(before.requestCount + 3);
    expect(await channelUsed()).toBe(channelBefore + total);
    // The dead process's node row is gone too.
    expect(
      await handle.db.selectFrom('node_instances').selectAll().where('id', '=', INSTANCE).execute(),
    ).toEqual([]);
  });
});

import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SettlementDeferred } from '../../src/billing/ledger/settlement-deferred.ts';
import { encodeEntry } from '../../src/billing/settlement/settlement-entry.ts';
import { duringOutage } from '../support/ledger-outage.ts';
import { testDatabaseKind } from '../support/test-database.ts';
import { consumeLogOf, type LedgerFixture, openLedgerFixture, readBooks } from './ledger-checks.ts';
import { eventually } from './server-process.ts';

/**
 * A settlement or refund the database refuses is retried while the process runs, and only while
 * its ledger row is still reserved. The outage is real: a trigger on the ledger table makes every
 * UPDATE and DELETE of it fail (reservations still insert) until the test drops it.
 */

const seed = {
  userId: 31,
  tokenId: 32,
  channelId: 33,
  name: 'retries',
  quota: 100_000,
  tokenRemain: 100_000,
};
const payer = { userId: seed.userId, tokenId: seed.tokenId, tokenUnlimited: false };
const consumeLog = consumeLogOf(seed);

describe('failed settlements and refunds are retried', () => {
  let fixture: LedgerFixture;
  const logged: string[] = [];
  const log = {
    error: (_: unknown, message: string) => logged.push(`error ${message}`),
    warn: (_: unknown, message: string) => logged.push(`warn ${message}`),
    info: (_: unknown, message: string) => logged.push(`info ${message}`),
  } as never;

  beforeAll(async () => {
    fixture = await openLedgerFixture(seed, { instanceId: 'retries', log, retryDelaysMs: [300, 100] });
  });
  afterAll(async () => {
    fixture?.billing.close();
    await fixture?.close();
  });
  beforeEach(async () => {
    logged.length = 0;
    await fixture.handle.db.updateTable('users').set({ quota: seed.quota, used_quota: 0 }).execute();
    await fixture.handle.db
      .updateTable('tokens')
      .set({ remain_quota: seed.tokenRemain, used_quota: 0 })
      .execute();
    await fixture.handle.db.deleteFrom('logs').execute();
  });

  const idle = () =>
    eventually('the billing service to hold nothing', async () => fixture.billing.openCount === 0, 10_000);

  /** Reserves 1,000 and settles the call at 400 during an outage: the settlement is refused. */
  async function refusedSettlement(requestId: string) {
    const { billing, handle } = fixture;
    const reservation = await billing.reserve(payer, 1_000, requestId);
    await duringOutage(handle, async () => {
      await expect(billing.settle(reservation, 400, seed.channelId, consumeLog(requestId))).rejects.toThrow(
        /ledger outage/,
      );
    });
    return reservation;
  }

  it('settles at the real cost once the database takes writes again', async () => {
    const { billing, handle, writer } = fixture;
    const reservation = await billing.reserve(payer, 1_000, 'retry-settle');
    let deferred: unknown;
    await duringOutage(handle, async () => {
      deferred = await billing
        .settle(reservation, 400, seed.channelId, consumeLog('retry-settle'))
        .catch((error: unknown) => error);
      // Rejected with what was refused, marked as handed to the retries (and logged there).
      expect(deferred).toBeInstanceOf(SettlementDeferred);
      expect((deferred as Error).message).toMatch(/ledger outage/);
      // Still held: the row is reserved and the reservation open, waiting for its retry.
      const during = await readBooks(handle, payer);
      expect(during.quota).toBe(seed.quota - 1_000);
      expect(during.open.map((row) => [row.id, row.state])).toEqual([[reservation.ledgerId, 'reserved']]);
      expect(billing.openCount).toBe(1);
    });
    await idle();
    await writer.flush();
    const after = await readBooks(handle, payer);
    expect(after.open).toEqual([]);
    expect(after.quota).toBe(seed.quota - 400);
    expect(after.tokenRemain).toBe(seed.tokenRemain - 400);
    expect(after.usedQuota).toBe(400);
    expect(after.consume.map((row) => Number(row.quota))).toEqual([400]);
    // What the retry charged reaches the caller, for the bookkeeping that follows a settlement.
    await expect((deferred as SettlementDeferred).written).resolves.toEqual({ charged: 400 });
    expect(logged[0]).toMatch(/^error settlement failed; it is retried/);
    expect(logged.at(-1)).toBe('info settlement retried and written');
  });

  it('refunds once the database takes writes again, without throwing at the caller', async () => {
    const { billing, handle } = fixture;
    const reservation = await billing.reserve(payer, 700, 'retry-refund');
    await duringOutage(handle, async () => {
      await expect(billing.refund(reservation)).resolves.toBeUndefined();
      expect((await readBooks(handle, payer)).quota).toBe(seed.quota - 700);
      expect(billing.openCount).toBe(1);
    });
    await idle();
    const after = await readBooks(handle, payer);
    expect(after.open).toEqual([]);
    expect(after.quota).toBe(seed.quota);
    expect(after.tokenRemain).toBe(seed.tokenRemain);
    expect(after.consume).toEqual([]);
  });

  it('changes nothing when the row is no longer reserved (the failed attempt may have committed)', async () => {
    const { handle, writer } = fixture;
    const reservation = await refusedSettlement('retry-gone');
    // Before the retry (300 ms): the row goes as a committed settlement would have taken it, the
    // balance at the cost. A retry that settled anyway would charge the cost a second time.
    await handle.db.deleteFrom('reservations').where('id', '=', reservation.ledgerId).execute();
    await handle.db
      .updateTable('users')
      .set({ quota: seed.quota - 400 })
      .where('id', '=', seed.userId)
      .execute();
    await idle();
    await writer.flush();
    const after = await readBooks(handle, payer);
    expect(after.quota).toBe(seed.quota - 400);
    expect(after.open).toEqual([]);
    expect(after.consume).toEqual([]);
  });

  // PostgreSQL and MySQL: a committed attempt leaves a settled row for the writer. On SQLite a
  // committed attempt leaves no row at all (written whole, ADR-24): the test above covers it.
  if (testDatabaseKind !== 'sqlite')
    it('hands a row the failed attempt settled after all to the settlement writer', async () => {
      const { handle, writer } = fixture;
      const reservation = await refusedSettlement('retry-committed');
      // Before the retry: the row and the balance as the attempt leaves them when its COMMIT went
      // through and only the answer was lost.
      const at = Math.floor(Date.now() / 1000);
      const log = { ...consumeLog('retry-committed')(400), created_at: at };
      await handle.db
        .updateTable('reservations')
        .set({ state: 'settled', charged: 400, channel_id: seed.channelId, entry: encodeEntry(at, log) })
        .where('id', '=', reservation.ledgerId)
        .execute();
      await handle.db
        .updateTable('users')
        .set({ quota: seed.quota - 400 })
        .execute();
      await handle.db
        .updateTable('tokens')
        .set({ remain_quota: seed.tokenRemain - 400 })
        .execute();
      await idle();
      await writer.flush();
      const after = await readBooks(handle, payer);
      expect(after.open).toEqual([]);
      expect(after.quota).toBe(seed.quota - 400);
      expect(after.usedQuota).toBe(400);
      expect(after.consume.map((row) => [Number(row.quota), JSON.parse(row.other!).request_id])).toEqual([
        [400, 'retry-committed'],
      ]);
    });

  it('stops retrying at shutdown, leaving the row for reconciliation', async () => {
    const { billing, handle } = fixture;
    const reservation = await billing.reserve(payer, 500, 'retry-stop');
    await duringOutage(handle, async () => {
      await billing.refund(reservation);
      billing.close();
    });
    await new Promise((resolve) => setTimeout(resolve, 600));
    const after = await readBooks(handle, payer);
    expect(after.open.map((row) => [row.id, row.state])).toEqual([[reservation.ledgerId, 'reserved']]);
    expect(after.quota).toBe(seed.quota - 500);
  });
});

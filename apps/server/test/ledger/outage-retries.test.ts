import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { duringOutage } from '../support/ledger-outage.ts';
import { expectCharged, readBooks } from './ledger-books.ts';
import {
  type Account,
  consumeLog,
  type LedgerApp,
  MANUAL_LEDGER_ENV,
  openLedgerApp,
  seedAccount,
} from './ledger-harness.ts';

/**
 * Retries after an outage: a settlement or refund the database refuses is not lost and not
 * doubled. Its reservation stays held until a retry writes it once the database takes writes
 * again; a batch of settled calls that cannot be written stays queued and is written once later.
 * The outage is real: a trigger makes every update and delete of the ledger fail
 * (support/ledger-outage.ts). The app retries after 1 s, then longer; settled calls are written
 * only when the test flushes, so a flush during the outage meets them.
 */

const START = 80_000;

describe('ledger conformance: retries after an outage', () => {
  let ledger: LedgerApp;
  let account: Account;
  const books = () => readBooks(ledger.handle, account);

  beforeAll(async () => {
    ledger = await openLedgerApp(MANUAL_LEDGER_ENV);
  });
  afterAll(() => ledger?.close());

  it('settles a settlement the database refused once, at its real cost, when writes come back', async () => {
    account = await seedAccount(ledger.handle, { quota: START, tokenRemain: START });
    const reservation = await ledger.billing.reserve(account.payer, 2_000, 'req-outage');
    let refusal: unknown;
    await duringOutage(ledger.handle, async () => {
      refusal = await ledger.billing
        .settle(reservation, 2_600, account.channelId, consumeLog(account, 'req-outage'))
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      // Refused: the reservation is still held, nothing is charged or counted.
      expect(refusal).toBeDefined();
      expect(ledger.billing.openCount).toBe(1);
      const held = await books();
      expect([held.quota, held.tokenRemain, held.usedQuota, held.open]).toEqual([
        START - 2_000,
        START - 2_000,
        0,
        1,
      ]);
    });
    // The refusal carries the settlement its retry writes.
    const written = (refusal as { written?: Promise<{ charged: number }> }).written;
    if (written) expect(await written).toMatchObject({ charged: 2_600 });
    expect(await ledger.billing.whenIdle(15_000)).toBe(true);
    await ledger.flush();
    expectCharged(await books(), { quota: START, tokenRemain: START }, [2_600]);
    expect((await books()).consume).toEqual([{ quota: 2_600, requestId: 'req-outage' }]);
  });

  it('refunds a refund the database refused once, without throwing at the caller', async () => {
    account = await seedAccount(ledger.handle, { quota: START, tokenRemain: START });
    const reservation = await ledger.billing.reserve(account.payer, 3_000, 'req-refund-outage');
    await duringOutage(ledger.handle, async () => {
      await expect(ledger.billing.refund(reservation)).resolves.toBeUndefined();
      expect((await books()).quota).toBe(START - 3_000);
      expect(ledger.billing.openCount).toBe(1);
      // A second refund while the first waits for its retry is not a second credit.
      await ledger.billing.refund(reservation);
    });
    expect(await ledger.billing.whenIdle(15_000)).toBe(true);
    await ledger.flush();
    expect(await books()).toMatchObject({
      quota: START,
      tokenRemain: START,
      usedQuota: 0,
      open: 0,
      consume: [],
    });
  });

  it('keeps settled calls whose batch cannot be written, and writes them once afterwards', async () => {
    account = await seedAccount(ledger.handle, { quota: START, tokenRemain: START });
    const costs = [400, 500, 600];
    for (const [n, cost] of costs.entries()) {
      const reservation = await ledger.billing.reserve(account.payer, 500, `req-batch-${n}`);
      await ledger.billing.settle(
        reservation,
        cost,
        account.channelId,
        consumeLog(account, `req-batch-${n}`),
      );
    }
    await duringOutage(ledger.handle, async () => {
      // A flush during the outage does not throw, and whatever it could not write stays.
      await expect(ledger.flush()).resolves.toBeUndefined();
      await expect(ledger.flush()).resolves.toBeUndefined();
    });
    await ledger.flush();
    await ledger.flush();
    expectCharged(await books(), { quota: START, tokenRemain: START }, costs);
  });

  it('settles and refunds calls made during an outage once each, the books whole afterwards', async () => {
    account = await seedAccount(ledger.handle, { quota: START, tokenRemain: START });
    const costs = [100, 1_000, 1_900, 0];
    await duringOutage(ledger.handle, async () => {
      const reservations = await Promise.all(
        costs.map((_, n) => ledger.billing.reserve(account.payer, 1_000, `req-during-${n}`)),
      );
      const refused = await Promise.allSettled(
        reservations.map((reservation, n) =>
          ledger.billing.settle(
            reservation,
            costs[n]!,
            account.channelId,
            consumeLog(account, `req-during-${n}`),
          ),
        ),
      );
      expect(refused.every((outcome) => outcome.status === 'rejected')).toBe(true);
      const cancelled = await ledger.billing.reserve(account.payer, 700, 'req-cancelled');
      await ledger.billing.refund(cancelled);
      expect(ledger.billing.openCount).toBe(costs.length + 1);
    });
    expect(await ledger.billing.whenIdle(15_000)).toBe(true);
    await ledger.flush();
    const after = await books();
    expectCharged(after, { quota: START, tokenRemain: START }, costs);
    expect(after.consume.map((row) => row.requestId).sort()).toEqual(costs.map((_, n) => `req-during-${n}`));
  });
});

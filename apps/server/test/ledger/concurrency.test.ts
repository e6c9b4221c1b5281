import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCharged, readBooks } from './ledger-books.ts';
import { consumeLog, type LedgerApp, openLedgerApp, seedAccount } from './ledger-harness.ts';

/**
 * Concurrency: many calls of one user and one token at once keep the sums exact (every charge
 * counted once, one consume row each) and never overdraw: a reservation is only granted from a
 * balance that covers it, whatever runs at the same time.
 */

const CALLS = 200;

describe('ledger conformance: concurrency', () => {
  let ledger: LedgerApp;

  beforeAll(async () => {
    ledger = await openLedgerApp();
  });
  afterAll(() => ledger?.close());

  it(`keeps the sums exact over ${CALLS} concurrent reserve and settle calls of one user and token`, async () => {
    const start = 10_000_000;
    const account = await seedAccount(ledger.handle, { quota: start, tokenRemain: start / 2 });
    // Costs above, equal to and below the reservation of 500.
    const costs = Array.from({ length: CALLS }, (_, n) => (n * 37) % 1_000);
    await Promise.all(
      costs.map(async (cost, n) => {
        const reservation = await ledger.billing.reserve(account.payer, 500, `req-${n}`);
        const settlement = await ledger.billing.settle(
          reservation,
          cost,
          account.channelId,
          consumeLog(account, `req-${n}`),
        );
        expect(settlement.charged).toBe(cost);
      }),
    );
    expect(await ledger.billing.whenIdle(5_000)).toBe(true);
    await ledger.flush();
    const books = await readBooks(ledger.handle, account);
    expectCharged(books, { quota: start, tokenRemain: start / 2 }, costs);
    expect(new Set(books.consume.map((row) => row.requestId)).size).toBe(CALLS);
  });

  it(`never overdraws the user: of ${CALLS} concurrent calls only those the balance covers are granted`, async () => {
    const account = await seedAccount(ledger.handle, { quota: 10_000, tokenRemain: 1_000_000 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: CALLS }, async (_, n) => {
        const reservation = await ledger.billing.reserve(account.payer, 100, `req-${n}`);
        await ledger.billing.settle(reservation, 100, account.channelId, consumeLog(account, `req-${n}`));
      }),
    );
    const granted = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    expect(granted).toBe(100);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ status: 403 });
    }
    await ledger.flush();
    const books = await readBooks(ledger.handle, account);
    expectCharged(books, { quota: 10_000, tokenRemain: 1_000_000 }, Array(100).fill(100));
    expect(books.quota).toBe(0);
  });

  it(`never overdraws a limited token: the token’s remaining quota bounds concurrent reservations`, async () => {
    const account = await seedAccount(ledger.handle, { quota: 1_000_000, tokenRemain: 5_000 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: CALLS }, () => ledger.billing.reserve(account.payer, 100, 'req-held')),
    );
    const held = outcomes.flatMap((outcome) => (outcome.status === 'fulfilled' ? [outcome.value] : []));
    expect(held).toHaveLength(50);
    const during = await readBooks(ledger.handle, account);
    expect([during.quota, during.tokenRemain, during.open]).toEqual([1_000_000 - 5_000, 0, 50]);
    await Promise.all(held.map((reservation) => ledger.billing.refund(reservation)));
    expect(await readBooks(ledger.handle, account)).toMatchObject({
      quota: 1_000_000,
      tokenRemain: 5_000,
      open: 0,
    });
  });

  it('lets quota given back by settlements be reserved again, without ever going below zero', async () => {
    // Each call reserves 1,000 and costs 250: the excess comes back and funds later calls.
    const account = await seedAccount(ledger.handle, { quota: 20_000, tokenRemain: 20_000 });
    const outcomes = await Promise.allSettled(
      Array.from({ length: CALLS }, async (_, n) => {
        const reservation = await ledger.billing.reserve(account.payer, 1_000, `req-${n}`);
        const books = await readBooks(ledger.handle, account);
        expect(books.quota).toBeGreaterThanOrEqual(0);
        expect(books.tokenRemain).toBeGreaterThanOrEqual(0);
        await ledger.billing.settle(reservation, 250, account.channelId, consumeLog(account, `req-${n}`));
      }),
    );
    const granted = outcomes.filter((outcome) => outcome.status === 'fulfilled').length;
    // At least what the balance covers without any give-back, at most what the total cost allows.
    expect(granted).toBeGreaterThanOrEqual(20);
    expect(granted).toBeLessThanOrEqual(80);
    await ledger.flush();
    const books = await readBooks(ledger.handle, account);
    expectCharged(books, { quota: 20_000, tokenRemain: 20_000 }, Array(granted).fill(250));
    expect(books.quota).toBeGreaterThanOrEqual(0);
  });
});

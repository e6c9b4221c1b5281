import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCharged, readBooks } from './ledger-books.ts';
import { consumeLog, type LedgerApp, openLedgerApp, seedAccount } from './ledger-harness.ts';

/**
 * Exact balances: a reservation holds quota before the upstream call, settlement moves the
 * balance to the real cost (giving back the excess, or taking the difference in full, even below
 * zero), and after the flush every counter moved by exactly what was charged. A reservation the
 * balance cannot cover is refused and changes nothing.
 */

const START = 100_000;

describe('ledger conformance: exact balances', () => {
  let ledger: LedgerApp;

  beforeAll(async () => {
    ledger = await openLedgerApp();
  });
  afterAll(() => ledger?.close());

  it.each([
    { name: 'above the reservation', reserved: 1_000, cost: 1_750 },
    { name: 'equal to the reservation', reserved: 1_000, cost: 1_000 },
    { name: 'below the reservation', reserved: 1_000, cost: 380 },
    { name: 'zero', reserved: 1_000, cost: 0 },
  ])('charges a cost $name exactly', async ({ reserved, cost }) => {
    const account = await seedAccount(ledger.handle, { quota: START, tokenRemain: START / 2 });
    const reservation = await ledger.billing.reserve(account.payer, reserved, 'req-1');
    const held = await readBooks(ledger.handle, account);
    expect([held.quota, held.tokenRemain, held.open]).toEqual([START - reserved, START / 2 - reserved, 1]);
    expect(
      await ledger.billing.settle(reservation, cost, account.channelId, consumeLog(account, 'req-1')),
    ).toEqual({ charged: cost });
    // The balance is exact as soon as settle answers; counters and the log row may wait for the flush.
    const settled = await readBooks(ledger.handle, account);
    expect([settled.quota, settled.tokenRemain]).toEqual([START - cost, START / 2 - cost]);
    await ledger.flush();
    const books = await readBooks(ledger.handle, account);
    expectCharged(books, { quota: START, tokenRemain: START / 2 }, [cost]);
    expect(books.consume).toEqual([{ quota: cost, requestId: 'req-1' }]);
  });

  it('charges a cost beyond the balance in full: the balance goes below zero, then reserving is refused', async () => {
    const account = await seedAccount(ledger.handle, { quota: 5_000, tokenRemain: 4_000 });
    const reservation = await ledger.billing.reserve(account.payer, 1_000, 'req-big');
    expect(
      await ledger.billing.settle(reservation, 9_000, account.channelId, consumeLog(account, 'req-big')),
    ).toEqual({ charged: 9_000 });
    await ledger.flush();
    const books = await readBooks(ledger.handle, account);
    expectCharged(books, { quota: 5_000, tokenRemain: 4_000 }, [9_000]);
    expect([books.quota, books.tokenRemain]).toEqual([-4_000, -5_000]);
    await expect(ledger.billing.reserve(account.payer, 1, 'req-in-debt')).rejects.toMatchObject({
      status: 403,
    });
    expect(await readBooks(ledger.handle, account)).toEqual(books);
  });

  it('refuses a reservation the user cannot cover and changes nothing', async () => {
    const account = await seedAccount(ledger.handle, { quota: 500, tokenRemain: 10_000 });
    const before = await readBooks(ledger.handle, account);
    await expect(ledger.billing.reserve(account.payer, 501, 'req-short-user')).rejects.toThrow(
      '用户额度不足',
    );
    expect(await readBooks(ledger.handle, account)).toEqual(before);
    expect(ledger.billing.openCount).toBe(0);
    // Exactly the balance is enough.
    const all = await ledger.billing.reserve(account.payer, 500, 'req-all');
    expect((await readBooks(ledger.handle, account)).quota).toBe(0);
    await ledger.billing.refund(all);
  });

  it('refuses a reservation the token cannot cover and leaves the user’s balance as it was', async () => {
    const account = await seedAccount(ledger.handle, { quota: 10_000, tokenRemain: 300 });
    const before = await readBooks(ledger.handle, account);
    await expect(ledger.billing.reserve(account.payer, 301, 'req-short-token')).rejects.toThrow(
      '令牌额度不足',
    );
    expect(await readBooks(ledger.handle, account)).toEqual(before);
    expect(ledger.billing.openCount).toBe(0);
  });

  it('leaves an unlimited token’s remaining quota alone but counts its use', async () => {
    const account = await seedAccount(ledger.handle, { quota: START, tokenRemain: 7, unlimited: true });
    const reservation = await ledger.billing.reserve(account.payer, 2_000, 'req-unlimited');
    await ledger.billing.settle(reservation, 2_500, account.channelId, consumeLog(account, 'req-unlimited'));
    await ledger.flush();
    expectCharged(
      await readBooks(ledger.handle, account),
      { quota: START, tokenRemain: 7, tokenLimited: false },
      [2_500],
    );
  });

  it('charges a call that reserved nothing from the balance at settlement', async () => {
    const account = await seedAccount(ledger.handle, { quota: START, tokenRemain: START });
    const reservation = await ledger.billing.reserve(account.payer, 0, 'req-free');
    expect((await readBooks(ledger.handle, account)).open).toBe(0);
    await ledger.billing.settle(reservation, 640, account.channelId, consumeLog(account, 'req-free'));
    await ledger.flush();
    expectCharged(await readBooks(ledger.handle, account), { quota: START, tokenRemain: START }, [640]);
  });

  it('counts a settlement without a consume row: counters move, no row is written', async () => {
    const account = await seedAccount(ledger.handle, { quota: START, tokenRemain: START });
    const reservation = await ledger.billing.reserve(account.payer, 900, 'req-unlogged');
    await ledger.billing.settle(reservation, 700, account.channelId);
    await ledger.flush();
    const books = await readBooks(ledger.handle, account);
    expect(books.consume).toEqual([]);
    expect(books).toMatchObject({
      quota: START - 700,
      tokenRemain: START - 700,
      usedQuota: 700,
      tokenUsed: 700,
      channelUsed: 700,
      requestCount: 1,
      open: 0,
    });
  });
});

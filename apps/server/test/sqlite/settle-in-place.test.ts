import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingService } from '../../src/billing/billing-service.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import type { SettlementWriter } from '../../src/logs/settlement-writer.ts';
import { consumeLogOf, type LedgerFixture, openLedgerFixture, readCounters } from '../crash/ledger-checks.ts';

/**
 * SQLite with the logs in the main database (ADR-24): a settlement sharing its group commit with
 * enough others deletes the reserved row, moves the balance to the cost, inserts the consume log
 * row and adds the counters in that commit; nothing goes to the settlement writer, and a failure
 * anywhere leaves the reserved row and the books as they were. Below the threshold it waits for
 * the writer's batch as on the other databases.
 */

const payer = { userId: 31, tokenId: 32, tokenUnlimited: false };
const CHANNEL = 33;
const START = 50_000;
const consumeLog = consumeLogOf({ ...payer, channelId: CHANNEL, name: 'inplace' });

describe('settle in place (SQLite)', () => {
  let fixture: LedgerFixture;
  let handle: DatabaseHandle;
  let billing: BillingService;
  let writer: SettlementWriter;
  const counters = () => readCounters(handle, payer, CHANNEL);
  const setQuota = (quota: number) =>
    handle.db.updateTable('users').set({ quota }).where('id', '=', payer.userId).execute();

  beforeAll(async () => {
    // 1: every settlement is written in place, alone in its commit or not.
    fixture = await openLedgerFixture(
      {
        userId: payer.userId,
        tokenId: payer.tokenId,
        channelId: CHANNEL,
        name: 'inplace',
        quota: START,
        tokenRemain: START,
      },
      { instanceId: 'inplace', settleInPlaceFrom: 1 },
    );
    ({ handle, billing, writer } = fixture);
    expect(handle.kind).toBe('sqlite');
  });
  afterAll(() => fixture?.close());

  it('refunds the excess and writes the log row and every counter in the same commit', async () => {
    const reservation = await billing.reserve(payer, 1_000, 'under');
    expect((await counters()).open).toBe(1);
    await expect(billing.settle(reservation, 300, CHANNEL, consumeLog('under'))).resolves.toEqual({
      charged: 300,
      shortfall: 0,
    });
    const after = await counters();
    expect(writer.pending).toBe(0);
    expect(after).toMatchObject({
      open: 0,
      quota: START - 300,
      tokenRemain: START - 300,
      usedQuota: 300,
      requestCount: 1,
      tokenUsed: 300,
      channelUsed: 300,
      consume: ['under'],
      consumeQuota: [300],
    });
    expect(after.tokenAccessed).toBeGreaterThan(0);
  });

  it('takes a cost beyond the reservation from the balance, and no more than the balance holds', async () => {
    const over = await billing.reserve(payer, 1_000, 'over');
    await expect(billing.settle(over, 1_700, CHANNEL, consumeLog('over'))).resolves.toEqual({
      charged: 1_700,
      shortfall: 0,
    });
    expect(await counters()).toMatchObject({
      quota: START - 2_000,
      tokenRemain: START - 2_000,
      usedQuota: 2_000,
    });

    await setQuota(1_500);
    const short = await billing.reserve(payer, 1_000, 'short');
    // 1,000 held + the 500 left on the balance; the other 1,500 are the shortfall.
    await expect(billing.settle(short, 3_000, CHANNEL, consumeLog('short'))).resolves.toEqual({
      charged: 1_500,
      shortfall: 1_500,
    });
    const after = await counters();
    expect(after).toMatchObject({ quota: 0, usedQuota: 3_500, requestCount: 3, channelUsed: 3_500 });
    expect(after.consumeQuota.at(-1)).toBe(1_500);
    await setQuota(START);
  });

  it('charges a reconciled reservation from the balance and counts a call without a log row', async () => {
    const before = await counters();
    const reservation = await billing.reserve(payer, 800, 'reconciled');
    // The master took this process for dead: the row is gone and its hold credited back.
    await handle.db.deleteFrom('reservations').execute();
    await setQuota(START);
    await expect(billing.settle(reservation, 600, CHANNEL)).resolves.toEqual({ charged: 600, shortfall: 0 });
    const after = await counters();
    expect(after.quota).toBe(START - 600);
    expect(after.consume).toEqual(before.consume);
    expect(after.usedQuota).toBe(before.usedQuota + 600);
    expect(after.requestCount).toBe(before.requestCount + 1);
    expect(after.channelUsed).toBe(before.channelUsed + 600);
  });

  it('leaves an unlimited token’s remaining quota alone but counts its use', async () => {
    const before = await counters();
    const unlimited = { ...payer, tokenUnlimited: true };
    const reservation = await billing.reserve(unlimited, 1_000, 'unlimited');
    await billing.settle(reservation, 400, CHANNEL, consumeLog('unlimited'));
    const after = await counters();
    expect(after.tokenRemain).toBe(before.tokenRemain);
    expect(after.tokenUsed).toBe(before.tokenUsed + 400);
    expect(after.quota).toBe(before.quota - 400);
  });

  it('changes nothing when the log row cannot be written: the reserved row stays for reconciliation', async () => {
    const reservation = await billing.reserve(payer, 1_000, 'failing');
    const held = await counters();
    await sql`ALTER TABLE logs RENAME TO logs_away`.execute(handle.db);
    try {
      await expect(billing.settle(reservation, 300, CHANNEL, consumeLog('failing'))).rejects.toThrow(/logs/);
    } finally {
      await sql`ALTER TABLE logs_away RENAME TO logs`.execute(handle.db);
    }
    expect(await counters()).toEqual(held);
    expect(held.open).toBe(1);
    expect(writer.pending).toBe(0);
  });

  it('writes in place only when the commit carries the threshold’s pieces; below it the batch writes', async () => {
    const before = await counters();
    const threshold = new BillingService(handle, {
      instanceId: 'inplace',
      settlements: writer,
      settleInPlaceFrom: 3,
    });
    const lone = await threshold.reserve(payer, 1_000, 'lone');
    await threshold.settle(lone, 100, CHANNEL, consumeLog('lone'));
    // Alone in its commit: marked settled, left to the writer.
    expect(writer.pending).toBe(1);
    expect(await counters()).toMatchObject({
      open: before.open + 1,
      consume: before.consume,
      usedQuota: before.usedQuota,
    });
    await writer.flush();
    expect(await counters()).toMatchObject({ open: before.open, usedQuota: before.usedQuota + 100 });

    // Three settlements submitted in one turn share a commit: each writes its own row.
    const names = ['wave-1', 'wave-2', 'wave-3'];
    const reservations = await Promise.all(names.map((name) => threshold.reserve(payer, 1_000, name)));
    await Promise.all(
      reservations.map((held, n) => threshold.settle(held, 200, CHANNEL, consumeLog(names[n]!))),
    );
    expect(writer.pending).toBe(0);
    const after = await counters();
    expect(after.open).toBe(before.open);
    expect(after.consume.slice(-3)).toEqual(names);
    expect(after.usedQuota).toBe(before.usedQuota + 700);
    expect(after.requestCount).toBe(before.requestCount + 4);
  });
});

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingService } from '../../src/billing/ledger/billing-service.ts';
import type { SettlementWriter } from '../../src/billing/settlement/settlement-writer.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { consumeLogOf, type LedgerFixture, openLedgerFixture, readCounters } from '../crash/ledger-checks.ts';

/**
 * SQLite (ADR-24): a settlement deletes the reserved row, moves the balance to the cost, appends
 * the consume log row to the log journal (ADR-35; the books count it there until the writer moves
 * it into logs) and adds the counters in its group commit, alone in it or not; nothing goes to the
 * settlement writer, and a failure anywhere leaves the reserved row and the books as they were.
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
    fixture = await openLedgerFixture(
      {
        userId: payer.userId,
        tokenId: payer.tokenId,
        channelId: CHANNEL,
        name: 'inplace',
        quota: START,
        tokenRemain: START,
      },
      { instanceId: 'inplace' },
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
    });
    expect(await counters()).toMatchObject({
      quota: START - 2_000,
      tokenRemain: START - 2_000,
      usedQuota: 2_000,
    });

    await setQuota(1_500);
    const short = await billing.reserve(payer, 1_000, 'short');
    // 1,000 held + the 500 left on the balance + 1,500 below zero: the whole cost, nothing written off.
    await expect(billing.settle(short, 3_000, CHANNEL, consumeLog('short'))).resolves.toEqual({
      charged: 3_000,
    });
    const after = await counters();
    expect(after).toMatchObject({ quota: -1_500, usedQuota: 5_000, requestCount: 3, channelUsed: 5_000 });
    expect(after.consumeQuota.at(-1)).toBe(3_000);
    // Below zero, the next reservation is refused.
    await expect(billing.reserve(payer, 1, 'in-debt')).rejects.toThrow('用户额度不足');
    await setQuota(START);
  });

  it('charges a reconciled reservation from the balance and counts a call without a log row', async () => {
    const before = await counters();
    const reservation = await billing.reserve(payer, 800, 'reconciled');
    // The master took this process for dead: the row is gone and its hold credited back.
    await handle.db.deleteFrom('reservations').execute();
    await setQuota(START);
    await expect(billing.settle(reservation, 600, CHANNEL)).resolves.toEqual({ charged: 600 });
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
    await sql`ALTER TABLE log_journal RENAME TO journal_away`.execute(handle.db);
    try {
      await expect(billing.settle(reservation, 300, CHANNEL, consumeLog('failing'))).rejects.toThrow(
        /log_journal/,
      );
    } finally {
      await sql`ALTER TABLE journal_away RENAME TO log_journal`.execute(handle.db);
    }
    expect(await counters()).toEqual(held);
    expect(held.open).toBe(1);
    expect(writer.pending).toBe(0);
  });

  it('writes a settlement alone in its commit and settlements sharing one alike', async () => {
    const before = await counters();
    const lone = await billing.reserve(payer, 1_000, 'lone');
    await billing.settle(lone, 100, CHANNEL, consumeLog('lone'));
    // Alone in its commit: written whole, nothing left to the writer.
    expect(writer.pending).toBe(0);
    expect(await counters()).toMatchObject({ open: before.open, usedQuota: before.usedQuota + 100 });

    // Three settlements submitted in one turn share a commit: each writes its own row.
    const names = ['wave-1', 'wave-2', 'wave-3'];
    const reservations = await Promise.all(names.map((name) => billing.reserve(payer, 1_000, name)));
    await Promise.all(
      reservations.map((held, n) => billing.settle(held, 200, CHANNEL, consumeLog(names[n]!))),
    );
    expect(writer.pending).toBe(0);
    const after = await counters();
    expect(after.open).toBe(before.open);
    expect(after.consume.slice(-4)).toEqual(['lone', ...names]);
    expect(after.usedQuota).toBe(before.usedQuota + 700);
    expect(after.requestCount).toBe(before.requestCount + 4);
  });

  it('adds up the settlements of one commit and writes the user, token and channel once each', async () => {
    const before = await counters();
    const names = ['sum-1', 'sum-2', 'sum-3', 'sum-4'];
    const costs = [100, 250, 0, 1_000];
    const reservations = await Promise.all(names.map((name) => billing.reserve(payer, 1_000, name)));
    const settled = await Promise.all(
      reservations.map((held, n) => billing.settle(held, costs[n]!, CHANNEL, consumeLog(names[n]!))),
    );
    expect(settled.map((s) => s.charged)).toEqual(costs);
    const after = await counters();
    expect(after).toMatchObject({
      open: before.open,
      quota: before.quota - 1_350,
      tokenRemain: before.tokenRemain - 1_350,
      usedQuota: before.usedQuota + 1_350,
      requestCount: before.requestCount + 4,
      tokenUsed: before.tokenUsed + 1_350,
      channelUsed: before.channelUsed + 1_350,
    });
    expect(after.consume.slice(-4)).toEqual(names);
    expect(after.consumeQuota.slice(-4)).toEqual(costs);
  });

  it('lets a hold in the same commit use the quota that commit’s settlements gave back', async () => {
    await setQuota(1_000);
    const first = await billing.reserve(payer, 1_000, 'gives-back');
    expect((await counters()).quota).toBe(0);
    // Submitted in one turn: one commit, the settlement first. Its 900 given back are written
    // with the commit, so the hold finds the balance short at first and must look again.
    const settled = billing.settle(first, 100, CHANNEL, consumeLog('gives-back'));
    const second = billing.reserve(payer, 500, 'uses-it');
    await expect(settled).resolves.toEqual({ charged: 100 });
    const reservation = await second;
    expect((await counters()).quota).toBe(400);
    await billing.settle(reservation, 500, CHANNEL, consumeLog('uses-it'));
    expect((await counters()).quota).toBe(400);
    await setQuota(START);
  });

  it('takes a cost beyond the reservation at once: a later hold in the same commit cannot overdraw', async () => {
    await setQuota(1_000);
    const first = await billing.reserve(payer, 500, 'beyond');
    const settled = billing.settle(first, 900, CHANNEL, consumeLog('beyond'));
    const second = billing.reserve(payer, 300, 'refused');
    await expect(settled).resolves.toEqual({ charged: 900 });
    await expect(second).rejects.toThrow();
    expect((await counters()).quota).toBe(100);
    await setQuota(START);
  });

  it('forgets the added-up moves of a commit that rolled back', async () => {
    const before = await counters();
    const reservations = await Promise.all(
      ['undone-1', 'undone-2'].map((n) => billing.reserve(payer, 1_000, n)),
    );
    const held = await counters();
    await sql`ALTER TABLE log_journal RENAME TO journal_away`.execute(handle.db);
    try {
      const settling = reservations.map((r, n) =>
        billing.settle(r, 100, CHANNEL, consumeLog(`undone-${n + 1}`)),
      );
      for (const settlement of settling) await expect(settlement).rejects.toThrow(/log_journal/);
    } finally {
      await sql`ALTER TABLE journal_away RENAME TO log_journal`.execute(handle.db);
    }
    // Nothing of the two settlements was written, and nothing is left pending for a later commit.
    expect(await counters()).toEqual(held);
    const next = await billing.reserve(payer, 1_000, 'after-undone');
    await billing.settle(next, 10, CHANNEL, consumeLog('after-undone'));
    const after = await counters();
    expect(after.usedQuota).toBe(held.usedQuota + 10);
    expect(after.requestCount).toBe(held.requestCount + 1);
    expect(after.open).toBe(before.open + 2);
  });
});

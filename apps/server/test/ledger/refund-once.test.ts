import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectCharged, readBooks } from './ledger-books.ts';
import { type Account, consumeLog, type LedgerApp, openLedgerApp, seedAccount } from './ledger-harness.ts';

/**
 * Refunds exactly once: a reservation is settled or refunded once, whatever is called after it
 * or at the same time, and a failed task's charge is refunded once however many pollers claim it.
 */

const START = 50_000;

describe('ledger conformance: refunds exactly once', () => {
  let ledger: LedgerApp;
  let account: Account;
  const books = () => readBooks(ledger.handle, account);

  beforeAll(async () => {
    ledger = await openLedgerApp();
  });
  afterAll(() => ledger?.close());

  const fresh = async () => {
    account = await seedAccount(ledger.handle, { quota: START, tokenRemain: START });
  };

  it('refunds the whole reservation once: a second refund gives nothing back', async () => {
    await fresh();
    const reservation = await ledger.billing.reserve(account.payer, 3_000, 'req-refund');
    await ledger.billing.refund(reservation);
    await ledger.billing.refund(reservation);
    await ledger.flush();
    expect(await books()).toMatchObject({ quota: START, tokenRemain: START, open: 0, requestCount: 0 });
    expect((await books()).consume).toEqual([]);
    expect(reservation.state).toBe('refunded');
  });

  it('refunds once when two refunds run at the same time', async () => {
    await fresh();
    const reservation = await ledger.billing.reserve(account.payer, 3_000, 'req-twice');
    await Promise.all([ledger.billing.refund(reservation), ledger.billing.refund(reservation)]);
    expect(await books()).toMatchObject({ quota: START, tokenRemain: START, open: 0 });
  });

  it('ignores a refund after settlement: the charge stays', async () => {
    await fresh();
    const reservation = await ledger.billing.reserve(account.payer, 3_000, 'req-settled');
    await ledger.billing.settle(reservation, 1_200, account.channelId, consumeLog(account, 'req-settled'));
    await ledger.billing.refund(reservation);
    await ledger.flush();
    expectCharged(await books(), { quota: START, tokenRemain: START }, [1_200]);
  });

  it('ignores a settlement after a refund: nothing is charged, no row is written', async () => {
    await fresh();
    const reservation = await ledger.billing.reserve(account.payer, 3_000, 'req-refunded');
    await ledger.billing.refund(reservation);
    expect(
      await ledger.billing.settle(reservation, 1_200, account.channelId, consumeLog(account, 'req-refunded')),
    ).toEqual({ charged: 0 });
    await ledger.flush();
    expect(await books()).toMatchObject({
      quota: START,
      tokenRemain: START,
      usedQuota: 0,
      requestCount: 0,
      channelUsed: 0,
      consume: [],
      open: 0,
    });
  });

  it('settles once: a second settlement charges nothing and writes no second row', async () => {
    await fresh();
    const reservation = await ledger.billing.reserve(account.payer, 3_000, 'req-once');
    const [first, second] = await Promise.all([
      ledger.billing.settle(reservation, 2_000, account.channelId, consumeLog(account, 'req-once')),
      ledger.billing.settle(reservation, 2_000, account.channelId, consumeLog(account, 'req-once')),
    ]);
    expect([first.charged, second.charged].sort()).toEqual([0, 2_000]);
    await ledger.billing.settle(reservation, 2_000, account.channelId, consumeLog(account, 'req-once'));
    await ledger.flush();
    expectCharged(await books(), { quota: START, tokenRemain: START }, [2_000]);
  });

  it('keeps the books whole when settle and refund race on one reservation: exactly one of them counts', async () => {
    await fresh();
    const reservation = await ledger.billing.reserve(account.payer, 3_000, 'req-race');
    const [settlement] = await Promise.all([
      ledger.billing.settle(reservation, 2_500, account.channelId, consumeLog(account, 'req-race')),
      ledger.billing.refund(reservation),
    ]);
    await ledger.flush();
    const after = await books();
    if (settlement.charged === 0) {
      expect(after).toMatchObject({ quota: START, tokenRemain: START, consume: [], open: 0 });
    } else {
      expectCharged(after, { quota: START, tokenRemain: START }, [2_500]);
    }
    expect(await ledger.billing.whenIdle(1_000)).toBe(true);
  });

  it('refunds a failed task once when two pollers claim it at the same time', async () => {
    await fresh();
    const cost = 4_000;
    const reservation = await ledger.billing.reserve(account.payer, cost, 'req-task');
    await ledger.billing.settle(reservation, cost, account.channelId, consumeLog(account, 'req-task'));
    await ledger.flush();
    const charged = await books();
    expectCharged(charged, { quota: START, tokenRemain: START }, [cost]);
    await ledger.handle.db
      .insertInto('tasks')
      .values({
        task_id: 'task-refund-once',
        platform: 'suno',
        user_id: account.userId,
        token_id: account.tokenId,
        channel_id: account.channelId,
        quota: cost,
        status: 'IN_PROGRESS',
      } as never)
      .execute();
    const payer = { userId: account.userId, tokenId: account.tokenId };
    const claim = () =>
      ledger.billing.refundTaskOnce(payer, cost, async (trx) => {
        const changed = await trx
          .updateTable('tasks')
          .set({ status: 'FAILURE', progress: '100%' })
          .where('task_id', '=', 'task-refund-once')
          .where('status', '!=', 'FAILURE')
          .executeTakeFirst();
        return Number(changed.numUpdatedRows) > 0;
      });
    const claims = await Promise.all([claim(), claim()]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await claim()).toBe(false);
    const after = await books();
    expect(after).toMatchObject({ quota: START, tokenRemain: START, usedQuota: 0, tokenUsed: 0 });
    // The call itself stays counted and logged: the refund reverses the charge, not the request.
    expect(after.requestCount).toBe(1);
    expect(after.consume).toEqual(charged.consume);
  });

  it('refunds nothing when the claim finds the task already closed', async () => {
    await fresh();
    const before = await books();
    const refunded = await ledger.billing.refundTaskOnce(
      { userId: account.userId, tokenId: account.tokenId },
      1_000,
      async () => false,
    );
    expect(refunded).toBe(false);
    expect(await books()).toEqual(before);
  });

  it('refunds a failed task on an unlimited token to the user only, reversing both used quotas', async () => {
    account = await seedAccount(ledger.handle, { quota: START, tokenRemain: 777, unlimited: true });
    const cost = 2_500;
    const reservation = await ledger.billing.reserve(account.payer, cost, 'req-task-unlimited');
    await ledger.billing.settle(
      reservation,
      cost,
      account.channelId,
      consumeLog(account, 'req-task-unlimited'),
    );
    await ledger.flush();
    expect(await books()).toMatchObject({
      quota: START - cost,
      tokenRemain: 777,
      usedQuota: cost,
      tokenUsed: cost,
    });
    const refunded = await ledger.billing.refundTaskOnce(
      { userId: account.userId, tokenId: account.tokenId },
      cost,
      async () => true,
    );
    expect(refunded).toBe(true);
    expect(await books()).toMatchObject({ quota: START, tokenRemain: 777, usedQuota: 0, tokenUsed: 0 });
  });

  it('rolls the claim back and credits nothing when the refund transaction fails', async () => {
    await fresh();
    await ledger.handle.db
      .insertInto('tasks')
      .values({
        task_id: 'task-refund-fails',
        platform: 'suno',
        user_id: account.userId,
        token_id: account.tokenId,
        channel_id: account.channelId,
        quota: 1_000,
        status: 'IN_PROGRESS',
      } as never)
      .execute();
    const before = await books();
    const failing = ledger.billing.refundTaskOnce(
      { userId: account.userId, tokenId: account.tokenId },
      1_000,
      async (trx) => {
        await trx
          .updateTable('tasks')
          .set({ status: 'FAILURE' })
          .where('task_id', '=', 'task-refund-fails')
          .execute();
        throw new Error('poller failed after its claim');
      },
    );
    await expect(failing).rejects.toThrow('poller failed after its claim');
    expect(await books()).toEqual(before);
    const task = await ledger.handle.db
      .selectFrom('tasks')
      .select('status')
      .where('task_id', '=', 'task-refund-fails')
      .executeTakeFirstOrThrow();
    expect(task.status).toBe('IN_PROGRESS');
  });
});

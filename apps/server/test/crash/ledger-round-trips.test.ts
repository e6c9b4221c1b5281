import { type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { BillingService } from '../../src/billing/ledger/billing-service.ts';
import { openLedger } from '../../src/billing/ledger/ledger-of.ts';
import { MYSQL_GROUP_LIMIT } from '../../src/billing/ledger/mysql/mysql-ledger.ts';
import type { SettlementWriter } from '../../src/billing/settlement/settlement-writer.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../support/test-database.ts';
import { flushOnlyWriter, readBooks, seedLedgerDatabase } from './ledger-checks.ts';

/**
 * How many round trips the ledger costs a relay call, and the refusals of its routines. On
 * PostgreSQL and MySQL, reserve, settle and refund are one statement each (migration 005's
 * routines) and open no client-side transaction, so no row lock is held across a round trip;
 * SQLite runs them in-process (no query through Kysely at all). On PostgreSQL one user's calls of
 * one event-loop turn share a statement (routine-groups.ts), as SQLite's share a transaction.
 * Token and user shortfalls leave no trace on any database.
 */

const payer = { userId: 11, tokenId: 12 };
const CHANNEL = 5;
const START = 50_000;
const tokenPayer = { ...payer, tokenUnlimited: false };
const expectedQueries = testDatabaseKind === 'sqlite' ? 0 : 1;
/**
 * Statements for `calls` calls of one user made in one turn: none (SQLite), one (PostgreSQL), one
 * per MYSQL_GROUP_LIMIT calls (MySQL).
 */
/** SQLite writes a settlement whole in its commit: no settled row waits for the writer. */
const leavesSettledRow = testDatabaseKind !== 'sqlite';
const groupedQueries = (calls: number) =>
  testDatabaseKind === 'sqlite' ? 0 : testDatabaseKind === 'mysql' ? Math.ceil(calls / MYSQL_GROUP_LIMIT) : 1;

describe('ledger round trips', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let billing: BillingService;
  let writer: SettlementWriter;
  const seen = { queries: 0, transactions: 0 };

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.target);
    await seedLedgerDatabase(handle, {
      userId: payer.userId,
      tokenId: payer.tokenId,
      channelId: CHANNEL,
      name: 'trips',
      quota: START,
      tokenRemain: 0,
    });
    // The billing service sees a handle whose every query and transaction is counted.
    // Counted as results come back: the ledger sends ready SQL text (compiled-statements.ts),
    // which no plugin's transformQuery sees, while every executed statement passes transformResult.
    const counting: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        seen.queries++;
        return args.result;
      },
    };
    const counted = handle.db.withPlugin(counting);
    const transaction = counted.transaction.bind(counted);
    counted.transaction = () => {
      seen.transactions++;
      return transaction();
    };
    const billed = { ...handle, db: counted };
    writer = flushOnlyWriter(handle);
    billing = new BillingService(billed, { instanceId: 'trips', settlements: writer });
  });
  afterAll(async () => {
    await writer?.close();
    await handle?.destroy();
    await database?.drop();
  });
  beforeEach(async () => {
    await handle.db.updateTable('users').set({ quota: START }).where('id', '=', payer.userId).execute();
    await handle.db
      .updateTable('tokens')
      .set({ remain_quota: 3_000 })
      .where('id', '=', payer.tokenId)
      .execute();
  });

  const counting = async <T>(work: () => Promise<T>): Promise<{ result: T; queries: number }> => {
    seen.queries = 0;
    seen.transactions = 0;
    const result = await work();
    expect(seen.transactions).toBe(0);
    return { result, queries: seen.queries };
  };

  it('reserves, settles and refunds in one statement each, with no client-side transaction', async () => {
    const reserve = await counting(() => billing.reserve(tokenPayer, 1_000, 'trip-1'));
    expect(reserve.queries).toBe(expectedQueries);
    const settle = await counting(() => billing.settle(reserve.result, 1_400, CHANNEL));
    expect(settle.result).toEqual({ charged: 1_400 });
    expect(settle.queries).toBe(expectedQueries);
    const refunded = await billing.reserve(tokenPayer, 700, 'trip-2');
    const refund = await counting(() => billing.refund(refunded));
    expect(refund.queries).toBe(expectedQueries);
    const books = await readBooks(handle, payer);
    expect(books.quota).toBe(START - 1_400);
    expect(books.tokenRemain).toBe(3_000 - 1_400);
    expect(books.open.map((row) => row.state)).toEqual(leavesSettledRow ? ['settled'] : []);
    await writer.flush();
    expect((await readBooks(handle, payer)).usedQuota).toBe(1_400);
  });

  it('has the routines of its database: PostgreSQL commits them without waiting for the WAL flush', async () => {
    if (testDatabaseKind === 'sqlite') {
      // SQLite runs the ledger in-process; migration 005 creates nothing there.
      const names = await sql<{ name: string }>`SELECT name FROM sqlite_master`.execute(handle.db);
      expect(names.rows.map((row) => row.name).filter((name) => name.startsWith('switchyard_'))).toEqual([
        'switchyard_migrations',
        'switchyard_migrations_lock',
        'switchyard_log_migrations',
        'switchyard_log_migrations_lock',
      ]);
      return;
    }
    if (testDatabaseKind === 'mysql') {
      const routines = await sql<{
        name: string;
      }>`SELECT routine_name AS name FROM information_schema.routines
        WHERE routine_schema = DATABASE() AND routine_type = 'PROCEDURE' ORDER BY routine_name`.execute(
        handle.db,
      );
      expect(routines.rows.map((row) => row.name)).toEqual([
        'switchyard_batch_counters',
        'switchyard_ledger_group',
        'switchyard_refund',
        'switchyard_reserve',
        'switchyard_settle',
      ]);
      return;
    }
    // Inside a caller's transaction the setting shows; it lasts only until that transaction ends.
    const seenInside = await handle.db.transaction().execute(async (trx) => {
      await sql`SELECT switchyard_refund('no-such-row', ${payer.userId}, ${payer.tokenId}, 0, 1)`.execute(
        trx,
      );
      return (await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(trx)).rows[0];
    });
    expect(seenInside?.synchronous_commit).toBe('off');
    const after = await sql<{ synchronous_commit: string }>`SHOW synchronous_commit`.execute(handle.db);
    expect(after.rows[0]?.synchronous_commit).toBe('on');
  });

  it('refuses a reservation the token cannot cover and leaves the user’s balance as it was', async () => {
    await expect(billing.reserve(tokenPayer, 3_001, 'trip-token-short')).rejects.toThrow('令牌额度不足');
    await expect(billing.reserve(tokenPayer, START + 1, 'trip-user-short')).rejects.toThrow('用户额度不足');
    const books = await readBooks(handle, payer);
    expect(books.quota).toBe(START);
    expect(books.tokenRemain).toBe(3_000);
    expect(books.open.filter((row) => row.state === 'reserved')).toEqual([]);
    expect(billing.openCount).toBe(0);
  });

  it('charges a cost beyond what the token has in full (general path), once', async () => {
    const reservation = await billing.reserve(tokenPayer, 1_000, 'trip-beyond');
    // The token has 2,000 left after the reservation: the other 1,500 of 4,500 take it below zero.
    expect(await billing.settle(reservation, 4_500, CHANNEL)).toEqual({ charged: 4_500 });
    const books = await readBooks(handle, payer);
    expect(books.tokenRemain).toBe(-1_500);
    expect(books.quota).toBe(START - 4_500);
    const row = books.open.find((open) => open.state === 'settled' && Number(open.charged) === 4_500);
    expect(row?.id).toBe(leavesSettledRow ? reservation.ledgerId : undefined);
    // A second settle or refund of the same reservation changes nothing.
    expect(await billing.settle(reservation, 4_500, CHANNEL)).toEqual({ charged: 0 });
    await billing.refund(reservation);
    expect((await readBooks(handle, payer)).quota).toBe(START - 4_500);
    // A token below zero is refused until topped up.
    await expect(billing.reserve(tokenPayer, 1, 'trip-token-in-debt')).rejects.toThrow('令牌额度不足');
    await writer.flush();
  });

  it('sends one user’s calls of one turn together (PostgreSQL and MySQL: one statement for all of them)', async () => {
    const reserved = await counting(() =>
      Promise.all(
        Array.from({ length: 6 }, (_, index) => billing.reserve(tokenPayer, 300, `trip-turn-${index}`)),
      ),
    );
    expect(reserved.queries).toBe(groupedQueries(6));
    const settled = await counting(() =>
      Promise.all(
        reserved.result.map((reservation, index) => billing.settle(reservation, 100 * (index + 1), CHANNEL)),
      ),
    );
    expect(settled.result.map((settlement) => settlement.charged)).toEqual([100, 200, 300, 400, 500, 600]);
    expect(settled.queries).toBe(groupedQueries(6));
    const books = await readBooks(handle, payer);
    expect(books.quota).toBe(START - 2_100);
    expect(books.tokenRemain).toBe(3_000 - 2_100);
    expect(books.open.filter((row) => row.state === 'reserved')).toEqual([]);
    await writer.flush();
  });

  it('sends a long turn of one user’s calls in groups of at most MYSQL_GROUP_LIMIT on MySQL', async () => {
    const count = MYSQL_GROUP_LIMIT + 4;
    const reserved = await counting(() =>
      Promise.all(
        Array.from({ length: count }, (_, index) => billing.reserve(tokenPayer, 10, `trip-long-${index}`)),
      ),
    );
    expect(reserved.queries).toBe(groupedQueries(count));
    expect((await readBooks(handle, payer)).tokenRemain).toBe(3_000 - 10 * count);
    await Promise.all(reserved.result.map((reservation) => billing.refund(reservation)));
    const books = await readBooks(handle, payer);
    expect(books.tokenRemain).toBe(3_000);
    expect(books.quota).toBe(START);
  });

  it('refuses one call of a group by itself: the others sharing its statement are kept', async () => {
    // The token holds 3,000: after the first reservation 2,000 are left, so the second is short.
    const mixed = await counting(() =>
      Promise.allSettled([
        billing.reserve(tokenPayer, 1_000, 'trip-mixed-1'),
        billing.reserve(tokenPayer, 2_500, 'trip-mixed-2'),
        billing.reserve(tokenPayer, 500, 'trip-mixed-3'),
      ]),
    );
    expect(mixed.result.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((mixed.result[1] as PromiseRejectedResult).reason).toMatchObject({ message: '令牌额度不足' });
    expect(mixed.queries).toBe(groupedQueries(3));
    const books = await readBooks(handle, payer);
    expect(books.quota).toBe(START - 1_500);
    expect(books.tokenRemain).toBe(3_000 - 1_500);
    expect(books.open.filter((row) => row.state === 'reserved')).toHaveLength(2);
    for (const outcome of mixed.result) {
      if (outcome.status === 'fulfilled') await billing.refund(outcome.value);
    }
    const after = await readBooks(handle, payer);
    expect(after.quota).toBe(START);
    expect(after.tokenRemain).toBe(3_000);
    expect(after.open.filter((row) => row.state === 'reserved')).toEqual([]);
  });

  it('keeps the text of settlements sent together whole, into their consume log rows', async () => {
    const content = '模型倍率 1.00，分组倍率 1.00 🚀 "quoted" \\ back\nline';
    const reservations = await Promise.all([
      billing.reserve(tokenPayer, 100, 'trip-text-1'),
      billing.reserve(tokenPayer, 100, 'trip-text-2'),
    ]);
    const settled = await counting(() =>
      Promise.all(
        reservations.map((reservation) =>
          billing.settle(reservation, 50, CHANNEL, () => ({
            type: 2,
            user_id: payer.userId,
            content,
            quota: 50,
          })),
        ),
      ),
    );
    expect(settled.queries).toBe(groupedQueries(2));
    await writer.flush();
    const rows = await handle.db
      .selectFrom('logs')
      .select('content')
      .where('content', '=', content)
      .execute();
    expect(rows).toHaveLength(2);
    await handle.db.deleteFrom('logs').where('content', '=', content).execute();
  });

  it('retries each call of a failed group alone, so only the call that fails by itself fails', async () => {
    // Two reservations with the same ledger id in one turn: the second cannot be written. On
    // SQLite the group commit's transaction, on PostgreSQL and MySQL the group's statement, rolls back;
    // each call then runs alone.
    const ledger = openLedger(handle);
    const reserve = (id: string) =>
      ledger.reserve({ id, requestId: id, payer: tokenPayer, amount: 400, instanceId: 'trips' });
    try {
      const [first, second, other] = await Promise.allSettled([
        reserve('trip-same'),
        reserve('trip-same'),
        reserve('trip-other'),
      ]);
      // MySQL sends the two at once on two connections: either may be the one refused.
      expect([first!.status, second!.status].sort()).toEqual(['fulfilled', 'rejected']);
      expect(other!.status).toBe('fulfilled');
      const books = await readBooks(handle, payer);
      expect(books.quota).toBe(START - 800);
      expect(books.tokenRemain).toBe(3_000 - 800);
      expect(books.open.map((row) => row.id).sort()).toEqual(['trip-other', 'trip-same']);
    } finally {
      await handle.db.deleteFrom('reservations').where('id', 'in', ['trip-other', 'trip-same']).execute();
    }
  });

  // SQLite has one writer, in-process: no other transaction can hold a row the ledger waits for.
  if (testDatabaseKind !== 'sqlite') {
    it('sends a call the database rolled back in a deadlock again, once the conflict is gone', async () => {
      const ledger = openLedger(handle);
      await handle.db.connection().execute(async (other) => {
        // Another transaction holds the token's row; the reservation takes the user's row, then
        // waits for the token. The other is made heavier (InnoDB rolls back the lighter one;
        // PostgreSQL the one whose deadlock check runs first: the reservation, waiting longer).
        await sql`BEGIN`.execute(other);
        for (let index = 0; index < 20; index++) {
          await sql`INSERT INTO logs (user_id, type, content) VALUES (${payer.userId}, 0, 'deadlock test')`.execute(
            other,
          );
        }
        await sql`UPDATE tokens SET remain_quota = remain_quota WHERE id = ${payer.tokenId}`.execute(other);
        const reserved = ledger.reserve({
          id: 'trip-deadlock',
          requestId: 'trip-deadlock',
          payer: tokenPayer,
          amount: 250,
          instanceId: 'trips',
        });
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Now the other transaction wants the user's row: a cycle, and the reservation is rolled back.
        await sql`UPDATE users SET quota = quota WHERE id = ${payer.userId}`.execute(other);
        await sql`ROLLBACK`.execute(other);
        expect(await reserved).toBeNull();
      });
      const books = await readBooks(handle, payer);
      expect(books.quota).toBe(START - 250);
      expect(books.tokenRemain).toBe(3_000 - 250);
      expect(books.open.map((row) => row.id)).toContain('trip-deadlock');
      expect(await ledger.refund('trip-deadlock', tokenPayer, 250)).toBe(true);
      expect((await readBooks(handle, payer)).quota).toBe(START);
    });
  }

  it('keeps one user’s balance exact under many concurrent reserve and settle calls', async () => {
    await handle.db
      .updateTable('tokens')
      .set({ remain_quota: START })
      .where('id', '=', payer.tokenId)
      .execute();
    const calls = Array.from({ length: 60 }, async (_, index) => {
      const reservation = await billing.reserve(tokenPayer, 500, `trip-many-${index}`);
      if (index % 3 === 0) await billing.refund(reservation);
      else await billing.settle(reservation, 100 + index, CHANNEL);
    });
    await Promise.all(calls);
    const charged = Array.from({ length: 60 }, (_, index) => (index % 3 === 0 ? 0 : 100 + index)).reduce(
      (sum, cost) => sum + cost,
      0,
    );
    const books = await readBooks(handle, payer);
    expect(books.quota).toBe(START - charged);
    expect(books.tokenRemain).toBe(START - charged);
    expect(books.open.filter((row) => row.state === 'reserved')).toEqual([]);
    await writer.flush();
  });
});

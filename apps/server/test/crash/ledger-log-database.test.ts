import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BillingService } from '../../src/billing/ledger/billing-service.ts';
import { reconcileReservations } from '../../src/billing/ledger/reservation-ledger.ts';
import { groupCommitOf } from '../../src/billing/ledger/sqlite/sqlite-group-commit.ts';
import { SqliteLogJournal } from '../../src/billing/ledger/sqlite/sqlite-log-journal.ts';
import { logValues } from '../../src/billing/settlement/log-values.ts';
import { SettlementWriter } from '../../src/billing/settlement/settlement-writer.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../support/test-database.ts';
import { quietLog } from './ledger-checks.ts';

/**
 * The ledger with logs in their own database (LOG_SQL_DSN): the settlement writer puts the log
 * rows there and the counters in the main database; a dead process's settled rows get their log
 * row once — not again when the dead writer had already written it before its main transaction.
 * On SQLite the log rows wait in the main database's log journal and are moved there, once.
 */

const USER = 5;
const TOKEN = 6;
const CHANNEL = 2;
const buildLog = (requestId: string) => (charged: number) => ({
  type: 2,
  user_id: USER,
  token_id: TOKEN,
  channel_id: CHANNEL,
  quota: charged,
  other: JSON.stringify({ request_id: requestId }),
});

describe('reservation ledger with a separate log database', () => {
  let mainDb: TestDatabase;
  let logDb: TestDatabase;
  let main: DatabaseHandle;
  let logs: DatabaseHandle;
  const consumeLogs = () =>
    logs.db.selectFrom('logs').select(['quota', 'other']).where('type', '=', 2).orderBy('id').execute();
  const counters = async () => {
    const user = await main.db
      .selectFrom('users')
      .select(['quota', 'used_quota', 'request_count'])
      .where('id', '=', USER)
      .executeTakeFirstOrThrow();
    return { quota: Number(user.quota), used: Number(user.used_quota), requests: Number(user.request_count) };
  };

  beforeAll(async () => {
    mainDb = await createTestDatabase();
    logDb = await createTestDatabase();
    main = openDatabase(mainDb.target);
    logs = openDatabase(logDb.target);
    await migrateDatabases(main.db as never, logs.db as never);
    await main.db
      .insertInto('users')
      .values({ id: USER, username: 'split', quota: 50_000, aff_code: 'split', access_token: null })
      .execute();
    await main.db
      .insertInto('tokens')
      .values({ id: TOKEN, user_id: USER, key: 'splitkey', name: 'split', unlimited_quota: 1 })
      .execute();
  });
  afterAll(async () => {
    await main?.destroy();
    await logs?.destroy();
    await mainDb?.drop();
    await logDb?.drop();
  });

  it('writes log rows to the log database and counters to the main one, each once', async () => {
    const writer = new SettlementWriter({
      database: main,
      logDatabase: logs,
      log: quietLog,
      batchSize: 100,
      intervalMs: 3_600_000,
    });
    const billing = new BillingService(main, { instanceId: 'live', settlements: writer });
    const payer = { userId: USER, tokenId: TOKEN, tokenUnlimited: true };
    for (const cost of [300, 400]) {
      const reservation = await billing.reserve(payer, 1000, `req-split-${cost}`);
      await billing.settle(reservation, cost, CHANNEL, buildLog(`req-split-${cost}`));
    }
    expect(await consumeLogs()).toEqual([]);
    await writer.close();
    expect((await consumeLogs()).map((log) => Number(log.quota))).toEqual([300, 400]);
    expect(await counters()).toEqual({ quota: 50_000 - 700, used: 700, requests: 2 });
    expect(await main.db.selectFrom('reservations').selectAll().execute()).toEqual([]);
  });

  it('completes a dead process’s settled rows without writing a log row its writer already wrote', async () => {
    const before = await counters();
    const rows = ['written', 'missing'].map((name, index) => ({
      id: `dead-${name}`,
      request_id: `req-dead-${name}`,
      user_id: USER,
      token_id: TOKEN,
      token_limited: 0,
      amount: 0,
      created_at: Date.now() - 60_000,
      instance_id: 'killed-process',
      state: 'settled',
      charged: 100 * (index + 1),
      channel_id: CHANNEL,
      entry: JSON.stringify({
        at: Math.floor(Date.now() / 1000) - 60,
        log: buildLog(`req-dead-${name}`)(100 * (index + 1)),
      }),
    }));
    await main.db.insertInto('reservations').values(rows).execute();
    // The killed writer got as far as the log database for the first row.
    await logs.db
      .insertInto('logs')
      .values({
        ...buildLog('req-dead-written')(100),
        created_at: Math.floor(Date.now() / 1000) - 60,
      })
      .execute();
    const reconcile = () =>
      reconcileReservations({
        database: main,
        logDatabase: logs,
        formatQuota: String,
        log: quietLog,
        instanceId: 'master',
        deadAfterMs: 30_000,
      });
    expect(await reconcile()).toMatchObject({ completed: 2, refunded: 0 });
    expect(await reconcile()).toMatchObject({ completed: 0 });
    const written = (await consumeLogs()).filter((log) => log.other?.includes('req-dead-'));
    expect(written.map((log) => JSON.parse(log.other!).request_id).sort()).toEqual([
      'req-dead-missing',
      'req-dead-written',
    ]);
    expect(await counters()).toEqual({
      quota: before.quota,
      used: before.used + 300,
      requests: before.requests + 2,
    });
    expect(await main.db.selectFrom('reservations').selectAll().execute()).toEqual([]);
  });

  // SQLite's log journal only: PostgreSQL and MySQL write consume rows straight to the log database.
  if (testDatabaseKind === 'sqlite')
    it('moves journal rows a stopped process left into the log database once, none it had moved already', async () => {
      const journal = new SqliteLogJournal(main.sqlite!);
      const at = Math.floor(Date.now() / 1000);
      // As after a kill -9 between the log database's insert and the journal's delete: both hold
      // 'req-left-moved'; 'req-left-missing' is only in the journal.
      await groupCommitOf(main.sqlite!).submit(() => {
        for (const name of ['moved', 'missing']) {
          journal.append(logValues(buildLog(`req-left-${name}`)(50), at));
        }
      });
      await logs.db
        .insertInto('logs')
        .values({ ...buildLog('req-left-moved')(50), created_at: at })
        .execute();
      // The next process: its own connection, its first move.
      const next = openDatabase(mainDb.target);
      const writer = new SettlementWriter({
        database: next,
        logDatabase: logs,
        log: quietLog,
        batchSize: 100,
        intervalMs: 3_600_000,
      });
      await writer.close();
      await next.destroy();
      expect(journal.count()).toBe(0);
      const left = (await consumeLogs()).filter((log) => log.other?.includes('req-left-'));
      expect(left.map((log) => JSON.parse(log.other!).request_id).sort()).toEqual([
        'req-left-missing',
        'req-left-moved',
      ]);
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM log_journal`.execute(main.db);
      expect(Number(rows[0]!.n)).toBe(0);
    });
});

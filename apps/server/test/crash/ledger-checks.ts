import { type Selectable, sql } from 'kysely';
import { expect } from 'vitest';
import { type BillingOptions, BillingService } from '../../src/billing/ledger/billing-service.ts';
import { SettlementWriter } from '../../src/billing/settlement/settlement-writer.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import type { LogTable } from '../../src/db/schema.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import type { Payer } from './gateway-client.ts';
import { eventually } from './server-process.ts';

/**
 * Ledger intervals for spawned servers: heartbeats every 300 ms, dead after 2 s, the master's
 * sweep every 500 ms, so a killed process's rows are reconciled within a few seconds.
 */
export const FAST_LEDGER_ENV = {
  NODE_HEARTBEAT_MS: '300',
  NODE_DEAD_AFTER_MS: '2000',
  LEDGER_SWEEP_MS: '500',
};

/** A logger that drops everything: the ledger's warnings are expected in these tests. */
export const quietLog = { warn: () => undefined, error: () => undefined, info: () => undefined } as never;

/** A settlement writer whose batches (up to 1,000 calls) are written only when the test flushes. */
export function flushOnlyWriter(handle: DatabaseHandle): SettlementWriter {
  return new SettlementWriter({
    database: handle,
    logDatabase: handle,
    log: quietLog,
    batchSize: 1000,
    intervalMs: 3_600_000,
  });
}

/** A consume log builder for `seed`'s calls: `consumeLog(requestId)` goes to `settle`. */
export function consumeLogOf(seed: { userId: number; tokenId: number; channelId: number; name: string }) {
  return (requestId: string) => (charged: number) => ({
    type: 2,
    user_id: seed.userId,
    username: seed.name,
    token_id: seed.tokenId,
    token_name: seed.name,
    channel_id: seed.channelId,
    quota: charged,
    content: `${seed.name} test`,
    other: JSON.stringify({ request_id: requestId }),
  });
}

/** Waits until the ledger is empty (reconciled, batches written), up to `timeoutMs`. */
export async function waitForEmptyLedger(handle: DatabaseHandle, timeoutMs = 30_000): Promise<void> {
  await eventually(
    'the reservation ledger to empty',
    async () => (await handle.db.selectFrom('reservations').select('id').execute()).length === 0,
    timeoutMs,
  );
}

/**
 * The consume log rows SQLite settlements in busy commits left in the log journal, not yet moved
 * into logs (ADR-35): as durable as logs, so the books count them.
 */
export async function readJournal(handle: DatabaseHandle, userId: number) {
  if (handle.kind !== 'sqlite') return [];
  // Negative ids: a journal row has none in logs yet.
  const { rows } = await sql<Selectable<LogTable>>`
    SELECT -rowid AS id, * FROM log_journal WHERE user_id = ${userId} ORDER BY rowid`.execute(handle.db);
  return rows;
}

/** Balances and ledger state of the payer, read straight from the database (logs and journal). */
export async function readBooks(handle: DatabaseHandle, payer: Pick<Payer, 'userId' | 'tokenId'>) {
  const db = handle.db;
  const user = await db
    .selectFrom('users')
    .select(['quota', 'used_quota', 'request_count'])
    .where('id', '=', payer.userId)
    .executeTakeFirstOrThrow();
  const token = await db
    .selectFrom('tokens')
    .select(['remain_quota', 'used_quota'])
    .where('id', '=', payer.tokenId)
    .executeTakeFirstOrThrow();
  const open = await db.selectFrom('reservations').selectAll().execute();
  const logs = [
    ...(await db.selectFrom('logs').selectAll().where('user_id', '=', payer.userId).orderBy('id').execute()),
    ...(await readJournal(handle, payer.userId)),
  ];
  const consume = logs.filter((log) => log.type === 2);
  return {
    quota: Number(user.quota),
    usedQuota: Number(user.used_quota),
    requestCount: Number(user.request_count),
    tokenRemain: Number(token.remain_quota),
    tokenUsed: Number(token.used_quota),
    open,
    consume,
    system: logs.filter((log) => log.type === 4),
    loggedQuota: consume.reduce((sum, log) => sum + Number(log.quota), 0),
  };
}

/** The counters a settlement adds (user, token, channel), the consume logs' request ids, open rows. */
export async function readCounters(
  handle: DatabaseHandle,
  payer: Pick<Payer, 'userId' | 'tokenId'>,
  channelId: number,
) {
  const books = await readBooks(handle, payer);
  const token = await handle.db
    .selectFrom('tokens')
    .select('accessed_time')
    .where('id', '=', payer.tokenId)
    .executeTakeFirstOrThrow();
  const channel = await handle.db
    .selectFrom('channels')
    .select('used_quota')
    .where('id', '=', channelId)
    .executeTakeFirstOrThrow();
  return {
    quota: books.quota,
    tokenRemain: books.tokenRemain,
    usedQuota: books.usedQuota,
    requestCount: books.requestCount,
    tokenUsed: books.tokenUsed,
    tokenAccessed: Number(token.accessed_time),
    channelUsed: Number(channel.used_quota),
    consume: books.consume.map((log) => JSON.parse(log.other!).request_id as string),
    consumeQuota: books.consume.map((log) => Number(log.quota)),
    open: books.open.length,
  };
}

/**
 * The books balance: nothing is held in the ledger, and the user's and the token's balance are
 * the starting quota minus exactly what the consume logs charged (which is also the used quota).
 */
export async function expectBalancedBooks(
  handle: DatabaseHandle,
  payer: Pick<Payer, 'userId' | 'tokenId'>,
  startQuota: number,
) {
  const books = await readBooks(handle, payer);
  expect(books.open).toEqual([]);
  expect(books.loggedQuota).toBeGreaterThan(0);
  expect(books.quota).toBe(startQuota - books.loggedQuota);
  expect(books.usedQuota).toBe(books.loggedQuota);
  expect(books.tokenRemain).toBe(startQuota - books.loggedQuota);
  expect(books.tokenUsed).toBe(books.loggedQuota);
  expect(books.quota + books.usedQuota).toBe(startQuota);
  return books;
}

/**
 * A migrated throwaway database with one user, one limited token and one channel, for tests that
 * drive the billing service directly.
 */
export interface LedgerSeed {
  userId: number;
  tokenId: number;
  channelId: number;
  name: string;
  quota: number;
  tokenRemain: number;
}

export async function seedLedgerDatabase(handle: DatabaseHandle, seed: LedgerSeed): Promise<void> {
  await migrateDatabases(handle.db as never, null);
  await handle.db
    .insertInto('users')
    .values({
      id: seed.userId,
      username: seed.name,
      quota: seed.quota,
      aff_code: seed.name,
      access_token: null,
    })
    .execute();
  await handle.db
    .insertInto('tokens')
    .values({
      id: seed.tokenId,
      user_id: seed.userId,
      key: `${seed.name}key`,
      name: seed.name,
      remain_quota: seed.tokenRemain,
    })
    .execute();
  await handle.db
    .insertInto('channels')
    .values({ id: seed.channelId, name: seed.name, key: 'k', models: 'gpt-4o' } as never)
    .execute();
}

/** A seeded throwaway database with a billing service whose batches are written only on flush. */
export interface LedgerFixture {
  database: TestDatabase;
  handle: DatabaseHandle;
  writer: SettlementWriter;
  billing: BillingService;
  /** Writes what is queued, closes the connection and drops the database. */
  close: () => Promise<void>;
}

export async function openLedgerFixture(
  seed: LedgerSeed,
  billing: Omit<BillingOptions, 'settlements'>,
): Promise<LedgerFixture> {
  const database = await createTestDatabase();
  const handle = openDatabase(database.target);
  await seedLedgerDatabase(handle, seed);
  const writer = flushOnlyWriter(handle);
  return {
    database,
    handle,
    writer,
    billing: new BillingService(handle, { ...billing, settlements: writer }),
    close: async () => {
      await writer.close();
      await handle.destroy();
      await database.drop();
    },
  };
}

import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepOrphans } from '../../src/billing/ledger/orphan-sweep.ts';
import type { LedgerDependencies } from '../../src/billing/ledger/reservation-ledger.ts';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import {
  type LedgerFixture,
  openLedgerFixture,
  quietLog,
  readBooks,
  seedLedgerDatabase,
} from './ledger-checks.ts';
import { eventually, type ServerProcess, startServer, stopServer } from './server-process.ts';

/**
 * A live process closes its own reserved rows that none of its calls holds any more (a call that
 * ended without settling or refunding), and nothing else: not a row an open call holds, not a
 * young row, not another process's row.
 */

const seed = { userId: 41, tokenId: 42, channelId: 43, name: 'orphans', quota: 50_000, tokenRemain: 50_000 };
const payer = { userId: seed.userId, tokenId: seed.tokenId, tokenUnlimited: false };
const INSTANCE = 'orphans-node';
const HOUR = 3_600_000;
const AGE = 600_000;

/** A reserved row with its amount held on user and token, as a reservation leaves it. */
async function insertLeakedRow(
  handle: DatabaseHandle,
  id: string,
  instanceId: string,
  createdAt: number,
  amount: number,
) {
  const { db } = handle;
  await db
    .insertInto('reservations')
    .values({
      id,
      request_id: `req-${id}`,
      user_id: seed.userId,
      token_id: seed.tokenId,
      token_limited: 1,
      amount,
      created_at: createdAt,
      instance_id: instanceId,
    })
    .execute();
  await db
    .updateTable('users')
    .set({ quota: sql`quota - ${amount}` })
    .where('id', '=', seed.userId)
    .execute();
  await db
    .updateTable('tokens')
    .set({ remain_quota: sql`remain_quota - ${amount}` })
    .where('id', '=', seed.tokenId)
    .execute();
}

describe('orphaned reservations of a live process', () => {
  let fixture: LedgerFixture;
  let deps: LedgerDependencies;

  beforeAll(async () => {
    fixture = await openLedgerFixture(seed, { instanceId: INSTANCE });
    deps = {
      database: fixture.handle,
      logDatabase: fixture.handle,
      formatQuota: (quota) => `${quota} quota`,
      log: quietLog,
      instanceId: INSTANCE,
      deadAfterMs: 30_000,
    };
  });
  afterAll(async () => {
    await fixture?.close();
  });

  const leakedRow = (id: string, instanceId: string, createdAt: number, amount: number) =>
    insertLeakedRow(fixture.handle, id, instanceId, createdAt, amount);

  it('refunds only its own old rows that no open call holds, with a system log row', async () => {
    const now = Date.now();
    const { billing, handle } = fixture;
    await leakedRow('leaked', INSTANCE, now - HOUR, 800);
    await leakedRow('young', INSTANCE, now - 1_000, 300);
    await leakedRow('elsewhere', 'another-node', now - HOUR, 200);
    const open = await billing.reserve(payer, 500, 'req-open');
    await handle.db
      .updateTable('reservations')
      .set({ created_at: now - HOUR })
      .where('id', '=', open.ledgerId)
      .execute();

    expect(await sweepOrphans(deps, billing, AGE, now)).toEqual({ refunded: 1, settled: 0 });

    const books = await readBooks(handle, payer);
    expect(books.open.map((row) => row.id).sort()).toEqual(['elsewhere', open.ledgerId, 'young'].sort());
    expect(books.quota).toBe(seed.quota - 300 - 200 - 500);
    expect(books.tokenRemain).toBe(seed.tokenRemain - 300 - 200 - 500);
    expect(books.system).toHaveLength(1);
    expect(books.system[0]!.content).toBe(
      '预扣额度对账：请求 req-leaked 已无进行中的调用持有，退还预扣额度 800 quota',
    );
    expect(JSON.parse(books.system[0]!.other!)).toMatchObject({
      reservation_id: 'leaked',
      reserved_quota: 800,
      reconciled: 'refunded',
      orphan: true,
    });

    // A second pass finds nothing more; the open call still refunds its own row.
    expect(await sweepOrphans(deps, billing, AGE, now)).toEqual({ refunded: 0, settled: 0 });
    await billing.refund(open);
    expect((await readBooks(handle, payer)).quota).toBe(seed.quota - 300 - 200);
  });
});

describe('the orphan sweep in a running server', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startServer(database.target, { LEDGER_SWEEP_MS: '200', LEDGER_ORPHAN_AFTER_MS: '1000' });
    handle = openDatabase(database.target);
    await seedLedgerDatabase(handle, seed);
  });
  afterAll(async () => {
    await stopServer(server);
    await handle?.destroy();
    await database?.drop();
  });

  it('refunds a row of its own that no call holds', async () => {
    const node = await handle.db.selectFrom('node_instances').select('id').executeTakeFirstOrThrow();
    await insertLeakedRow(handle, 'leaked-live', node.id, Date.now() - HOUR, 900);
    expect((await readBooks(handle, payer)).quota).toBe(seed.quota - 900);
    await eventually(
      'the leaked row to be refunded',
      async () => (await readBooks(handle, payer)).open.length === 0,
      15_000,
    );
    const books = await readBooks(handle, payer);
    expect(books.quota).toBe(seed.quota);
    expect(books.tokenRemain).toBe(seed.tokenRemain);
    expect(books.system.map((log) => JSON.parse(log.other!).reservation_id)).toEqual(['leaked-live']);
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { expectCharged, readBooks } from './ledger-books.ts';
import { consumeLog, MANUAL_LEDGER_ENV, openLedgerApp, seedAccount } from './ledger-harness.ts';

/**
 * The last settlements at shutdown: a graceful close waits for the calls still holding
 * reservations, then writes every settled call (consume rows and counters) before the process's
 * node row goes, so nothing is left for reconciliation. Settled calls are written here only by
 * the close itself (MANUAL_LEDGER_ENV: no timer flush).
 */

describe('ledger conformance: the final flush at shutdown', () => {
  let database: TestDatabase;
  let reader: DatabaseHandle | undefined;

  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await reader?.destroy();
    await database?.drop();
  });

  it('writes every settled call, including one that settles while the app closes', async () => {
    const ledger = await openLedgerApp(MANUAL_LEDGER_ENV, database);
    const account = await seedAccount(ledger.handle, { quota: 50_000, tokenRemain: 50_000 });
    const costs = [300, 400];
    for (const [n, cost] of costs.entries()) {
      const reservation = await ledger.billing.reserve(account.payer, 500, `req-${n}`);
      await ledger.billing.settle(reservation, cost, account.channelId, consumeLog(account, `req-${n}`));
    }
    // A call still running when shutdown starts: it settles a moment later.
    const late = await ledger.billing.reserve(account.payer, 500, 'req-late');
    const settleLate = new Promise<void>((resolve) =>
      setTimeout(() => {
        void ledger.billing
          .settle(late, 650, account.channelId, consumeLog(account, 'req-late'))
          .then(() => resolve());
      }, 150),
    );
    const instanceId = ledger.instanceId;
    await Promise.all([ledger.close(), settleLate]);

    reader = openDatabase(database.target);
    const books = await readBooks(reader, account);
    expectCharged(books, { quota: 50_000, tokenRemain: 50_000 }, [...costs, 650]);
    expect(books.consume.map((row) => row.requestId).sort()).toEqual(['req-0', 'req-1', 'req-late']);
    // Nothing is left for reconciliation: no ledger row, no node row of the closed process.
    expect(await reader.db.selectFrom('reservations').select('id').execute()).toEqual([]);
    expect(
      await reader.db.selectFrom('node_instances').select('id').where('id', '=', instanceId).execute(),
    ).toEqual([]);
  });
});

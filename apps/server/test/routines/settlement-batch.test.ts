import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BillingService } from '../../src/billing/ledger/billing-service.ts';
import type { SettlementWriter } from '../../src/billing/settlement/settlement-writer.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import {
  consumeLogOf,
  type LedgerFixture,
  openLedgerFixture,
  readBooks,
  readCounters,
} from '../crash/ledger-checks.ts';

/**
 * The settlement writer's batch on every database (on PostgreSQL its counter updates and COMMIT
 * go as one message, postgres-settlement-batch.ts): only the ledger rows the batch deletes get
 * their consume log and counters, and a batch that fails anywhere, its last statements included,
 * changes nothing and stays queued. SQLite has no batch: a settlement writes everything in its own
 * commit (ADR-24; test/sqlite/settle-in-place.test.ts).
 */

const payer = { userId: 21, tokenId: 22, tokenUnlimited: false };
const CHANNEL = 23;
const START = 80_000;
const consumeLog = consumeLogOf({ ...payer, channelId: CHANNEL, name: 'batch' });

describe('settlement batches', () => {
  let fixture: LedgerFixture;
  let handle: DatabaseHandle;
  let billing: BillingService;
  let writer: SettlementWriter;

  const settled = async (requestId: string, cost: number) => {
    const reservation = await billing.reserve(payer, 1_000, requestId);
    await billing.settle(reservation, cost, CHANNEL, consumeLog(requestId));
  };
  const counters = () => readCounters(handle, payer, CHANNEL);

  beforeAll(async () => {
    fixture = await openLedgerFixture(
      {
        userId: payer.userId,
        tokenId: payer.tokenId,
        channelId: CHANNEL,
        name: 'batch',
        quota: START,
        tokenRemain: START,
      },
      { instanceId: 'batch' },
    );
    ({ handle, billing, writer } = fixture);
  });
  afterAll(() => fixture?.close());

  it('writes log rows and counters for the rows it deletes, and nothing for a row gone already', async () => {
    await settled('first', 300);
    await settled('taken', 200);
    await settled('third', 100);
    // Another node completed 'taken' meanwhile: its row is gone, its log and counters are not ours.
    const books = await readBooks(handle, payer);
    const taken = books.open.find((row) => JSON.parse(row.entry!).log.other.includes('"taken"'))!;
    await handle.db.deleteFrom('reservations').where('id', '=', taken.id).execute();

    await writer.flush();
    const after = await counters();
    expect(writer.pending).toBe(0);
    expect(after.consume).toEqual(['first', 'third']);
    expect(after.usedQuota).toBe(400);
    expect(after.requestCount).toBe(2);
    expect(after.tokenUsed).toBe(400);
    expect(after.channelUsed).toBe(400);
    expect(after.tokenAccessed).toBeGreaterThan(0);
    expect(after.open).toBe(0);
  });

  it('changes nothing when its last statements fail, and writes the batch once they can run', async () => {
    const before = await counters();
    await settled('retried', 250);
    // The channel counter is the batch's last statement: without its table, the batch fails there.
    await sql`ALTER TABLE channels RENAME TO channels_away`.execute(handle.db);
    try {
      await writer.flush();
      expect(writer.pending).toBe(1);
      const books = await readBooks(handle, payer);
      expect(books.open).toHaveLength(1);
      expect(books.usedQuota).toBe(before.usedQuota);
      expect(books.requestCount).toBe(before.requestCount);
      expect(books.tokenUsed).toBe(before.tokenUsed);
      expect(books.consume).toHaveLength(before.consume.length);
    } finally {
      await sql`ALTER TABLE channels_away RENAME TO channels`.execute(handle.db);
    }
    await writer.flush();
    const after = await counters();
    expect(writer.pending).toBe(0);
    expect(after.consume).toEqual([...before.consume, 'retried']);
    expect(after.usedQuota).toBe(before.usedQuota + 250);
    expect(after.channelUsed).toBe(before.channelUsed + 250);
    expect(after.open).toBe(0);
  });
});

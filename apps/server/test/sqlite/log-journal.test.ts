import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { groupCommitOf } from '../../src/billing/ledger/sqlite/sqlite-group-commit.ts';
import { JOURNAL_MOVE_ROWS, SqliteLogJournal } from '../../src/billing/ledger/sqlite/sqlite-log-journal.ts';
import { logValues } from '../../src/billing/settlement/log-values.ts';
import { SettlementWriter } from '../../src/billing/settlement/settlement-writer.ts';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { consumeLogOf, type LedgerFixture, openLedgerFixture, quietLog } from '../crash/ledger-checks.ts';
import { eventually } from '../crash/server-process.ts';

/**
 * The log journal (ADR-35): on SQLite, a settlement in a busy commit appends its consume log row
 * to `log_journal` in its own commit, and the settlement writer moves the journal into `logs`
 * (oldest first, JOURNAL_MOVE_ROWS per transaction) on each flush, its timer's included.
 */

const payer = { userId: 41, tokenId: 42, tokenUnlimited: false };
const CHANNEL = 43;
const consumeLog = consumeLogOf({ ...payer, channelId: CHANNEL, name: 'journal' });

describe('log journal (SQLite)', () => {
  let fixture: LedgerFixture;
  let handle: DatabaseHandle;
  let journal: SqliteLogJournal;

  const logRows = async () =>
    (
      await handle.db
        .selectFrom('logs')
        .select(['id', 'content', 'quota', 'created_at', 'other', 'username', 'channel_id'])
        .orderBy('id')
        .execute()
    ).map((row) => ({ ...row, requestId: JSON.parse(row.other!).request_id as string }));
  const appendRows = (names: string[]) =>
    groupCommitOf(handle.sqlite!).submit(() => {
      for (const name of names) {
        journal.append(
          logValues(
            { type: 2, user_id: payer.userId, content: name, quota: 1, other: `{"request_id":"${name}"}` },
            1_700_000_000,
          ),
        );
      }
    });

  beforeAll(async () => {
    fixture = await openLedgerFixture(
      { ...payer, channelId: CHANNEL, name: 'journal', quota: 1_000_000, tokenRemain: 1_000_000 },
      { instanceId: 'journal' },
    );
    handle = fixture.handle;
    journal = new SqliteLogJournal(handle.sqlite!);
  });
  afterAll(() => fixture?.close());
  beforeEach(async () => {
    await fixture.writer.flush();
    await handle.db.deleteFrom('logs').execute();
  });

  it('keeps an in-place settlement’s row in the journal until the writer flushes, then moves it whole', async () => {
    const names = ['first', 'second', 'third'];
    const reservations = await Promise.all(names.map((name) => fixture.billing.reserve(payer, 500, name)));
    const costs = [120, 0, 480];
    await Promise.all(
      reservations.map((held, n) => fixture.billing.settle(held, costs[n]!, CHANNEL, consumeLog(names[n]!))),
    );
    // Settled and counted, but the rows wait in the journal.
    expect(journal.count()).toBe(3);
    expect(await logRows()).toEqual([]);

    await fixture.writer.flush();
    expect(journal.count()).toBe(0);
    const rows = await logRows();
    expect(rows.map((row) => row.requestId)).toEqual(names);
    expect(rows.map((row) => Number(row.quota))).toEqual(costs);
    for (const row of rows) {
      expect(row).toMatchObject({ content: 'journal test', username: 'journal', channel_id: CHANNEL });
      expect(Number(row.created_at)).toBeGreaterThan(1_700_000_000);
    }
  });

  it('moves more rows than one transaction takes, in the order they were appended', async () => {
    const count = JOURNAL_MOVE_ROWS * 2 + 17;
    const names = Array.from({ length: count }, (_, n) => `bulk-${n}`);
    await appendRows(names);
    await expect(journal.move()).resolves.toBe(count);
    expect(journal.count()).toBe(0);
    expect((await logRows()).map((row) => row.content)).toEqual(names);
  });

  it('moves only what the journal held when the move began; later rows wait for the next move', async () => {
    await appendRows(['before-1', 'before-2']);
    const moving = journal.move();
    const later = appendRows(['later']);
    await expect(moving).resolves.toBe(2);
    await later;
    expect(journal.count()).toBe(1);
    expect((await logRows()).map((row) => row.content)).toEqual(['before-1', 'before-2']);
    await expect(journal.move()).resolves.toBe(1);
  });

  it('answers 0 without a transaction when the journal is empty', async () => {
    await expect(journal.move()).resolves.toBe(0);
    expect(groupCommitOf(handle.sqlite!).pending).toBe(0);
  });

  it('leaves the rows in the journal when the move fails, and moves them on a later flush', async () => {
    await appendRows(['kept-1', 'kept-2']);
    const errors: unknown[] = [];
    const notices: unknown[] = [];
    const writer = new SettlementWriter({
      database: handle,
      logDatabase: handle,
      log: {
        error: (...args: unknown[]) => errors.push(args),
        info: (message: unknown) => notices.push(message),
        warn: () => undefined,
      } as never,
      batchSize: 1000,
      intervalMs: 3_600_000,
    });
    await sql`ALTER TABLE logs RENAME TO logs_away`.execute(handle.db);
    try {
      await writer.flush();
      await writer.flush();
    } finally {
      await sql`ALTER TABLE logs_away RENAME TO logs`.execute(handle.db);
    }
    expect(journal.count()).toBe(2);
    // Reported once, not on every tick, and once more when it works again.
    expect(errors).toHaveLength(1);
    expect(notices).toEqual([]);
    await writer.close();
    expect(notices).toEqual(['the log journal is moved into logs again']);
    expect(journal.count()).toBe(0);
    expect((await logRows()).map((row) => row.content)).toEqual(['kept-1', 'kept-2']);
  });

  it('moves rows a stopped process left in the journal on the next writer’s first tick', async () => {
    // As after a kill -9: committed journal rows, no process to move them.
    await appendRows(['left-1', 'left-2', 'left-3']);
    const writer = new SettlementWriter({
      database: handle,
      logDatabase: handle,
      log: quietLog,
      batchSize: 1000,
      intervalMs: 50,
    });
    try {
      await eventually('the journal to be moved', async () => journal.count() === 0, 5_000);
      expect((await logRows()).map((row) => row.content)).toEqual(['left-1', 'left-2', 'left-3']);
    } finally {
      await writer.close();
    }
  });
});

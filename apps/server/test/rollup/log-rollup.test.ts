import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { LogRepository } from '../../src/db/repositories/log-repository.ts';
import { fixedPacing } from '../../src/logs/retention/cleanup-pacing.ts';
import { LogBatchDeleter } from '../../src/logs/retention/log-batch-deleter.ts';
import { LogRollupJob } from '../../src/logs/rollup/log-rollup-job.ts';
import { sumRawRows } from '../../src/logs/rollup/log-sums.ts';
import { rolledUpThrough } from '../../src/logs/rollup/rolled-up-through.ts';
import { DAY, HOUR } from '../../src/logs/rollup/rollup-grains.ts';
import { sumLogs } from '../../src/logs/rollup/rollup-stat-query.ts';
import type { LogRollupTiming } from '../../src/logs/rollup/rollup-timing.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../support/test-database.ts';
import { BASE, insertLogs, randomFilter, randomLogs, SPREAD, seeded } from './rollup-fixtures.ts';

const quiet = { warn: () => undefined };
const timing = (batchRows: number): LogRollupTiming => ({
  pacing: fixedPacing(batchRows, 0),
  idleMs: 10,
  settleMs: 0,
});

describe('consume-log aggregates against the raw rows', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const logs = () => new LogRepository(handle.db);

  /** The stat's sums from the aggregates must equal the raw rows' sums for the same filter. */
  async function expectExact(seed: number, filters: number) {
    const random = seeded(seed);
    for (let i = 0; i < filters; i++) {
      const filter = randomFilter(random);
      const type = filter.type || 2;
      const range = { from: filter.start || null, to: filter.end ? filter.end + 1 : null };
      const [fast, raw, quota] = await Promise.all([
        sumLogs(handle.db, filter),
        sumRawRows(handle.db, filter, type, range),
        logs().sumQuota(filter),
      ]);
      expect(fast, JSON.stringify(filter)).toEqual(raw);
      expect(fast.quota).toBe(quota);
    }
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.target);
    await migrateDatabases(handle.db as never, null);
  });

  afterAll(async () => {
    await handle.destroy();
    await database.drop();
  });

  it('answers every random filter and range exactly, rolled up in part, in full, and after more rows', async () => {
    const random = seeded(7);
    const job = new LogRollupJob(handle.db, handle.kind, quiet, timing(700));
    await insertLogs(handle, randomLogs(random, 1500));
    await expectExact(1, 40);
    expect(await job.runOnce()).toBe(700);
    await expectExact(2, 40);
    await job.catchUp();
    expect(await rolledUpThrough(handle.db)).toBe(await maxId(handle));
    await expectExact(3, 60);
    await insertLogs(handle, randomLogs(random, 900));
    await expectExact(4, 40);
    await job.catchUp();
    await expectExact(5, 60);
  });

  it('resumes an interrupted roll-up from its watermark, counting each row once', async () => {
    const random = seeded(11);
    await insertLogs(handle, randomLogs(random, 1200));
    const first = new LogRollupJob(handle.db, handle.kind, quiet, timing(300));
    await first.runOnce();
    await first.runOnce();
    const second = new LogRollupJob(handle.db, handle.kind, quiet, timing(250));
    await second.catchUp();
    expect(await rolledUpThrough(handle.db)).toBe(await maxId(handle));
    await expectExact(12, 60);
    expect(await countedRows(handle)).toBe(await rowCount(handle));
  });

  it('lets only one of two racing roll-ups count a batch', async () => {
    await insertLogs(handle, randomLogs(seeded(13), 400));
    const a = new LogRollupJob(handle.db, handle.kind, quiet, timing(400));
    const b = new LogRollupJob(handle.db, handle.kind, quiet, timing(400));
    const results = await Promise.allSettled([a.runOnce(), b.runOnce()]);
    expect(results.filter((result) => result.status === 'fulfilled').length).toBeGreaterThanOrEqual(1);
    await a.catchUp();
    expect(await countedRows(handle)).toBe(await rowCount(handle));
    await expectExact(14, 30);
  });

  it('runs as a background job until stopped', async () => {
    await insertLogs(handle, randomLogs(seeded(15), 300));
    const job = new LogRollupJob(handle.db, handle.kind, quiet, timing(100));
    job.start();
    const target = await maxId(handle);
    for (let i = 0; i < 400 && (await rolledUpThrough(handle.db)) < target; i++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await job.stop();
    expect(await rolledUpThrough(handle.db)).toBe(target);
    expect(await countedRows(handle)).toBe(await rowCount(handle));
  });

  // Last: it deletes raw rows, after which only ranges past the cut can be compared with them.
  it('keeps the history of whole buckets after the raw rows before a point are deleted', async () => {
    const job = new LogRollupJob(handle.db, handle.kind, quiet, timing(1000));
    await job.catchUp();
    const cut = BASE + 2 * DAY + 5 * HOUR;
    const whole = [
      {},
      { start: BASE, end: BASE + SPREAD },
      { start: BASE + HOUR, end: cut - 1, modelName: 'gpt' },
      { userId: 2, start: BASE, end: BASE + 3 * DAY - 1 },
      { username: 'user3', tokenName: 'token3-1', channelId: 2 },
      { type: 5, group: 'vip', start: BASE + DAY },
    ];
    const before = await Promise.all(whole.map((filter) => sumLogs(handle.db, filter)));
    // Deleted as "clear logs before" deletes, bounded by the watermark as the app bounds it.
    const deleter = new LogBatchDeleter(handle.db);
    const bound = await rolledUpThrough(handle.db);
    let deleted = 0;
    for (let batch = 1; batch > 0; deleted += batch) batch = await deleter.clearBatch(cut, bound, 500);
    expect(deleted).toBeGreaterThan(0);
    const after = await Promise.all(whole.map((filter) => sumLogs(handle.db, filter)));
    expect(after).toEqual(before);
    // A range that starts at the cut is answered exactly from what is left.
    const tail = { start: cut, end: BASE + SPREAD + DAY };
    expect(await sumLogs(handle.db, tail)).toEqual(
      await sumRawRows(handle.db, tail, 2, { from: cut, to: BASE + SPREAD + DAY + 1 }),
    );
  });
});

/**
 * On PostgreSQL and MySQL a logs row can commit after a row with a higher id: the roll-up must not
 * move its watermark past the lower id before that row's transaction has had the settle time to
 * commit. The clock is the job's own, moved by the test.
 */
if (testDatabaseKind !== 'sqlite') {
  describe('roll-up watermark and rows that commit late', () => {
    let database: TestDatabase;
    let handle: DatabaseHandle;
    let other: DatabaseHandle;

    beforeAll(async () => {
      database = await createTestDatabase();
      handle = openDatabase(database.target);
      await migrateDatabases(handle.db as never, null);
      other = openDatabase(database.target);
    });

    afterAll(async () => {
      await other.destroy();
      await handle.destroy();
      await database.drop();
    });

    it('waits the settle time before passing an id, so a row committed late is counted', async () => {
      await insertLogs(handle, randomLogs(seeded(21), 50));
      let clock = 1_000_000;
      const job = new LogRollupJob(
        handle.db,
        handle.kind,
        { warn: () => undefined },
        { pacing: fixedPacing(1000, 0), idleMs: 10, settleMs: 30_000 },
        () => clock,
      );
      expect(await job.runOnce()).toBe(0);
      clock += 30_000;
      expect(await job.runOnce()).toBe(50);
      const before = await rolledUpThrough(handle.db);

      let release!: () => void;
      const held = new Promise<void>((resolve) => {
        release = resolve;
      });
      let lateInserted!: () => void;
      const inserted = new Promise<void>((resolve) => {
        lateInserted = resolve;
      });
      const late = other.db.transaction().execute(async (trx) => {
        await new LogRepository(trx).insert({
          type: 2,
          quota: 7000,
          created_at: 1_760_000_100,
          username: 'late',
        });
        lateInserted();
        await held;
      });
      await inserted;
      await insertLogs(handle, randomLogs(seeded(22), 20));
      // The higher ids are visible, the late row's is not: a note is taken, nothing passes yet.
      clock += 1000;
      expect(await job.runOnce()).toBe(0);
      clock += 10_000;
      expect(await job.runOnce()).toBe(0);
      expect(await rolledUpThrough(handle.db)).toBe(before);
      release();
      await late;
      clock += 20_000;
      expect(await job.runOnce()).toBe(21);
      const everything = await sumLogs(handle.db, {});
      expect(everything).toEqual(await sumRawRows(handle.db, {}, 2, { from: null, to: null }));
      const counted = await handle.db
        .selectFrom('log_rollups')
        .select((eb) => eb.fn.sum<number | string>('quota').as('quota'))
        .where('grain', '=', 5)
        .where('username', '=', 'late')
        .executeTakeFirst();
      expect(Number(counted?.quota)).toBe(7000);
    });
  });
}

async function maxId(handle: DatabaseHandle): Promise<number> {
  const row = await handle.db
    .selectFrom('logs')
    .select((eb) => eb.fn.max<number | string | null>('id').as('id'))
    .executeTakeFirst();
  return Number(row?.id ?? 0);
}

/** Rows ever counted: the per-type daily totals (grain 1) over all time. */
async function countedRows(handle: DatabaseHandle): Promise<number> {
  const row = await handle.db
    .selectFrom('log_rollups')
    .select((eb) => eb.fn.sum<number | string | null>('count').as('n'))
    .where('grain', '=', 1)
    .where('span', '=', DAY)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Raw rows ever written: those left plus those retention deleted (which the aggregates keep). */
async function rowCount(handle: DatabaseHandle): Promise<number> {
  return maxId(handle);
}

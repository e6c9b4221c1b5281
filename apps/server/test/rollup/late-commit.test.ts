import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { LogRepository } from '../../src/db/repositories/log-repository.ts';
import { LogRollupJob } from '../../src/logs/rollup/log-rollup-job.ts';
import { sumRawRows } from '../../src/logs/rollup/log-sums.ts';
import { rolledUpThrough } from '../../src/logs/rollup/rolled-up-through.ts';
import { sumLogs } from '../../src/logs/rollup/rollup-stat-query.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../support/test-database.ts';
import { insertLogs, randomLogs, seeded } from './rollup-fixtures.ts';

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
        { batchRows: 1000, pauseMs: 0, idleMs: 10, settleMs: 30_000 },
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

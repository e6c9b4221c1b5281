import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { up as fillAddedGrains } from '../../src/db/migrations/106-log-rollup-user-token-grains.ts';
import type { LogFilter } from '../../src/db/repositories/log-repository.ts';
import { fixedPacing } from '../../src/logs/retention/cleanup-pacing.ts';
import { LogBatchDeleter } from '../../src/logs/retention/log-batch-deleter.ts';
import { LogRollupJob } from '../../src/logs/rollup/log-rollup-job.ts';
import { sumRawRows } from '../../src/logs/rollup/log-sums.ts';
import { rolledUpThrough } from '../../src/logs/rollup/rolled-up-through.ts';
import { DAY, grainFor, HOUR } from '../../src/logs/rollup/rollup-grains.ts';
import { sumLogs } from '../../src/logs/rollup/rollup-stat-query.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { BASE, insertLogs, randomFilter, randomLogs, SPREAD, seeded } from './rollup-fixtures.ts';

const quiet = { warn: () => undefined };
const ADDED_GRAINS = [8, 9];

/**
 * A database whose roll-up ran before the per-user-with-model and per-token-name grains existed:
 * migration 106 must fill their history so that the stats they now answer stay exact, including
 * the history whose raw rows retention has deleted.
 */
describe('grains added to a database that was already rolled up', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;

  beforeEach(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.target);
    await migrateDatabases(handle.db as never, null);
    await insertLogs(handle, randomLogs(seeded(31), 2000));
    await rollUpEverything();
    // As the build before these grains left it: no rows of theirs, the watermark at the end.
    await handle.db.deleteFrom('log_rollups').where('grain', 'in', ADDED_GRAINS).execute();
  });

  afterEach(async () => {
    await handle.destroy();
    await database.drop();
  });

  async function rollUpEverything() {
    await new LogRollupJob(handle.db, handle.kind, quiet, {
      pacing: fixedPacing(5000, 0),
      idleMs: 10,
      settleMs: 0,
    }).catchUp();
  }

  /** Random filters that read the added grains, compared with the raw rows. */
  async function expectExact(seed: number) {
    const random = seeded(seed);
    let compared = 0;
    while (compared < 40) {
      const filter = randomFilter(random);
      if (!ADDED_GRAINS.includes(grainFor(filter)?.id ?? 0)) continue;
      compared++;
      const range = { from: filter.start || null, to: filter.end ? filter.end + 1 : null };
      expect(await sumLogs(handle.db, filter), JSON.stringify(filter)).toEqual(
        await sumRawRows(handle.db, filter, filter.type || 2, range),
      );
    }
  }

  it('fills their days and hours up to the watermark, and the roll-up counts every grain past it', async () => {
    await fillAddedGrains(handle.db as never);
    await expectExact(32);
    await insertLogs(handle, randomLogs(seeded(33), 700));
    await expectExact(34);
    await rollUpEverything();
    await expectExact(35);
  });

  it('fills their days from the full grain where retention deleted the raw rows', async () => {
    const cut = BASE + 2 * DAY;
    const end = BASE + SPREAD - 5 * HOUR + 17;
    const filters: LogFilter[] = [
      { userId: 2, start: BASE, end },
      { userId: 3, modelName: 'gpt', start: BASE - DAY },
      { username: 'user1', type: 5, start: BASE, end },
      { tokenName: 'token4-1', start: BASE + DAY, end },
      { tokenName: 'token2-0' },
    ];
    // Answered with the grains whole, before the raw rows go.
    await fillAddedGrains(handle.db as never);
    const before = await Promise.all(filters.map((filter) => sumLogs(handle.db, filter)));
    await handle.db.deleteFrom('log_rollups').where('grain', 'in', ADDED_GRAINS).execute();
    const deleter = new LogBatchDeleter(handle.db);
    const bound = await rolledUpThrough(handle.db);
    let deleted = 0;
    for (let batch = 1; batch > 0; deleted += batch) batch = await deleter.clearBatch(cut, bound, 500);
    expect(deleted).toBeGreaterThan(0);
    await fillAddedGrains(handle.db as never);
    expect(await Promise.all(filters.map((filter) => sumLogs(handle.db, filter)))).toEqual(before);
  });

  it('fills nothing twice when it runs again', async () => {
    await fillAddedGrains(handle.db as never);
    await fillAddedGrains(handle.db as never);
    await expectExact(36);
  });
});

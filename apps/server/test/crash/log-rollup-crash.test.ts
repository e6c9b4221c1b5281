import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { sumRawRows } from '../../src/logs/rollup/log-sums.ts';
import { rolledUpThrough } from '../../src/logs/rollup/rolled-up-through.ts';
import { DAY } from '../../src/logs/rollup/rollup-grains.ts';
import { sumLogs } from '../../src/logs/rollup/rollup-stat-query.ts';
import { insertLogs, randomFilter, randomLogs, seeded } from '../rollup/rollup-fixtures.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';
import { eventually, startServer, stopServer } from './server-process.ts';

/**
 * The real server killed (SIGKILL) while its roll-up is catching up with rows it has not counted,
 * more rows written while it is down: the next process counts every row once.
 */
describe('log roll-up across a killed process', () => {
  let database: TestDatabase;
  let handle: DatabaseHandle;
  const slow = { LOG_ROLLUP_BATCH_ROWS: '40', LOG_ROLLUP_PAUSE_MS: '30', LOG_ROLLUP_SETTLE_MS: '0' };

  beforeAll(async () => {
    database = await createTestDatabase();
    handle = openDatabase(database.target);
    await migrateDatabases(handle.db as never, null);
  });
  afterAll(async () => {
    await handle?.destroy();
    await database?.drop();
  });

  const maxId = async () =>
    Number(
      (
        await handle.db
          .selectFrom('logs')
          .select((eb) => eb.fn.max<number | string | null>('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0,
    );

  it('catches up after SIGKILL with no row lost or counted twice', async () => {
    const random = seeded(99);
    await insertLogs(handle, randomLogs(random, 1500));
    const first = await startServer(database.target, slow);
    try {
      await eventually('the roll-up to start', async () => (await rolledUpThrough(handle.db)) >= 200, 30_000);
      first.kill('SIGKILL');
      expect((await first.exited).signal).toBe('SIGKILL');
    } finally {
      await stopServer(first);
    }
    const reached = await rolledUpThrough(handle.db);
    expect(reached).toBeLessThan(await maxId());
    await insertLogs(handle, randomLogs(random, 500));
    const target = await maxId();

    const second = await startServer(database.target, {
      LOG_ROLLUP_SETTLE_MS: '0',
      LOG_ROLLUP_IDLE_MS: '50',
    });
    try {
      await eventually(
        'the roll-up to catch up',
        async () => (await rolledUpThrough(handle.db)) === target,
        60_000,
      );
    } finally {
      second.kill('SIGTERM');
      await second.exited;
    }
    const counted = await handle.db
      .selectFrom('log_rollups')
      .select((eb) => eb.fn.sum<number | string>('count').as('n'))
      .where('grain', '=', 1)
      .where('span', '=', DAY)
      .executeTakeFirst();
    expect(Number(counted?.n)).toBe(2000);
    const filters = seeded(100);
    for (let i = 0; i < 40; i++) {
      const filter = randomFilter(filters);
      const range = { from: filter.start || null, to: filter.end ? filter.end + 1 : null };
      expect(await sumLogs(handle.db, filter), JSON.stringify(filter)).toEqual(
        await sumRawRows(handle.db, filter, filter.type || 2, range),
      );
    }
  }, 180_000);
});

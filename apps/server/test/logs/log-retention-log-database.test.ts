import { LogType } from '@switchyard/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { LogRepository } from '../../src/db/repositories/log-repository.ts';
import { fixedPacing } from '../../src/logs/retention/cleanup-pacing.ts';
import { LogCleaner } from '../../src/logs/retention/log-cleaner.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

// With LOG_SQL_DSN the logs, and the retention cursors with them, live in their own database.

const NOW = 1_800_000_000;
const DAY = 86_400;

describe('log retention on a separate log database', () => {
  let mainDb: TestDatabase;
  let logDb: TestDatabase;
  let main: DatabaseHandle;
  let logs: DatabaseHandle;

  beforeAll(async () => {
    mainDb = await createTestDatabase();
    logDb = await createTestDatabase();
    main = openDatabase(mainDb.target);
    logs = openDatabase(logDb.target);
    await migrateDatabases(main.db as never, logs.db as never);
  });
  afterAll(async () => {
    await main.destroy();
    await logs.destroy();
    await mainDb.drop();
    await logDb.drop();
  });

  it('keeps its cursors beside the logs and deletes there', async () => {
    const rows = [40, 20, 1].map((age) => ({
      type: LogType.Consume,
      created_at: NOW - age * DAY,
      content: `${age}`,
    }));
    await new LogRepository(logs.db).insertMany(rows);
    const cleaner = new LogCleaner(logs.db, { pacing: fixedPacing(10, 0) });
    const days = (option: string) => (option === 'LogConsumeRetentionDays' ? 30 : 0);
    expect(await cleaner.runRetention(days, NOW)).toEqual({ consume: 1, error: 0, detail: 0 });
    const left = await logs.db.selectFrom('logs').select('content').orderBy('id').execute();
    expect(left.map((row) => row.content)).toEqual(['20', '1']);
    expect(await logs.db.selectFrom('log_retention_cursors').select('rule').execute()).toEqual([
      { rule: 'consume' },
    ]);
    await expect(main.db.selectFrom('log_retention_cursors').selectAll().execute()).rejects.toThrow();
  });
});

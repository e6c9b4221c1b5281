import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, envelope, type TestApp } from '../helper.ts';
import { testDatabaseKind } from '../support/test-database.ts';

/** The logs table's index names on the database under test (primary key left out). */
async function logIndexes(app: TestApp): Promise<string[]> {
  const db = app.app.services.database.db;
  const query =
    testDatabaseKind === 'postgres'
      ? sql<{
          name: string;
        }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = 'logs' AND indexname NOT LIKE '%pkey'`
      : testDatabaseKind === 'mysql'
        ? sql<{ name: string }>`SELECT DISTINCT index_name AS name FROM information_schema.statistics
            WHERE table_schema = DATABASE() AND table_name = 'logs' AND index_name <> 'PRIMARY'`
        : sql<{
            name: string;
          }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'logs' AND sql IS NOT NULL`;
  const { rows } = await query.execute(db);
  return rows.map((row) => row.name).sort();
}

describe('the logs table keeps only indexes its queries use', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('has the time index and one (filter column, created_at) index per list filter (migration 104)', async () => {
    expect(await logIndexes(app)).toEqual([
      'idx_logs_channel_created',
      'idx_logs_created_at_type',
      'idx_logs_group_created',
      'idx_logs_model_created',
      'idx_logs_token_created',
      'idx_logs_token_name_created',
      'idx_logs_type_created',
      'idx_logs_user_created',
      'idx_logs_username_created',
    ]);
  });

  it('still finds logs by a part of the model name, ignoring case', async () => {
    const root = await app.login('root', '123456');
    const db = app.app.services.database.db;
    await db
      .insertInto('logs')
      .values([
        {
          user_id: 1,
          username: 'root',
          created_at: 1_800_000_000,
          type: 2,
          model_name: 'GPT-4o-mini',
          quota: 5,
        },
        {
          user_id: 1,
          username: 'root',
          created_at: 1_800_000_001,
          type: 2,
          model_name: 'claude-3-haiku',
          quota: 7,
        },
      ] as never)
      .execute();
    const body = envelope(await root.get('/api/log/?p=1&page_size=10&model_name=4O-MI')).data;
    expect(body.items.map((log: { model_name: string }) => log.model_name)).toEqual(['GPT-4o-mini']);
  });
});

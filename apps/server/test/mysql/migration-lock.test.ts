import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { DatabaseLockMysqlAdapter } from '../../src/db/mysql-database-lock-dialect.ts';
import { eventually } from '../crash/server-process.ts';
import { createTestDatabase, type TestDatabase } from '../support/test-database.ts';

/** Connections of `database` waiting in GET_LOCK. */
async function lockWaiters(handle: DatabaseHandle, database: string): Promise<number> {
  const { rows } = await sql<{ n: number }>`
    select count(*) as n from information_schema.processlist
    where db = ${database} and state = 'User lock'`.execute(handle.db);
  return Number(rows[0]?.n ?? 0);
}

describe('migration lock on MySQL: one per database', () => {
  const databases: TestDatabase[] = [];
  const handles: DatabaseHandle[] = [];
  const open = (database: TestDatabase) => {
    const handle = openDatabase(database.target);
    handles.push(handle);
    return handle;
  };

  beforeAll(async () => {
    databases.push(await createTestDatabase(), await createTestDatabase());
  });
  afterAll(async () => {
    for (const handle of handles) await handle.destroy();
    for (const database of databases) await database.drop();
  });

  it('migrates a database while another one’s migration holds its lock; a second run on the same database waits', async () => {
    const [first, second] = databases as [TestDatabase, TestDatabase];
    const firstName = new URL(first.target.location).pathname.slice(1);
    const holder = open(first);
    const adapter = new DatabaseLockMysqlAdapter();
    await holder.db.connection().execute(async (connection) => {
      // A migration of the first database in progress.
      await adapter.acquireMigrationLock(connection);
      await migrateDatabases(open(second).db as never, null);
      let finished = false;
      const sameDatabase = migrateDatabases(open(first).db as never, null).then(() => {
        finished = true;
      });
      await eventually(
        'the second migration of the first database to wait for its lock',
        async () => (await lockWaiters(holder, firstName)) === 1,
      );
      expect(finished).toBe(false);
      await adapter.releaseMigrationLock(connection);
      await sameDatabase;
      expect(finished).toBe(true);
    });
    const tables = await sql<{ n: number }>`
      select count(*) as n from information_schema.tables where table_schema = ${firstName}`.execute(
      holder.db,
    );
    expect(Number(tables.rows[0]?.n)).toBeGreaterThan(20);
  }, 120_000);
});

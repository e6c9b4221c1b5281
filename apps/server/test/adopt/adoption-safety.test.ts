import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { readSchema } from '../../src/db/adopt/schema-inspector.ts';
import { openDatabase } from '../../src/db/database.ts';
import { migrateDatabases } from '../../src/db/migrate.ts';
import { envelope } from '../helper.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../support/test-database.ts';
import { querySql, runSql, startOn, writeNewApiDatabase } from './adopt-support.ts';
import { passwords } from './fixtures/new-api-rows.ts';

/** Every table and column, as plain data to compare before and after (read-only on SQLite). */
async function snapshot(database: TestDatabase) {
  const { target } = database;
  const db =
    target.kind === 'sqlite'
      ? new Kysely<unknown>({
          dialect: new SqliteDialect({ database: new SQLite(target.location, { readonly: true }) }),
        })
      : (openDatabase(target).db as Kysely<unknown>);
  try {
    const schema = await readSchema(db, target.kind);
    return [...schema].map(([table, columns]) => [table, [...columns]]).sort();
  } finally {
    await db.destroy();
  }
}

describe('adoption safety', () => {
  let database: TestDatabase | null = null;
  afterEach(async () => {
    await database?.drop();
    database = null;
  });

  it('refuses a database from another product and changes nothing', async () => {
    database = await createTestDatabase();
    await runSql(database.target, [
      'CREATE TABLE accounts (id integer PRIMARY KEY, name varchar(64))',
      'CREATE TABLE users (id integer PRIMARY KEY, email varchar(255))',
      "INSERT INTO users (id, email) VALUES (1, 'someone@example.com')",
    ]);
    const before = await snapshot(database);
    await expect(startOn(database.target)).rejects.toThrow(
      /not one written by new-api, one-api or Switchyard \(found tables accounts, users; missing users\.username/,
    );
    expect(await snapshot(database)).toEqual(before);
    if (testDatabaseKind === 'sqlite') {
      const file = database.target.location;
      const [mode] = await querySql<{ journal_mode: string }>(database.target, 'PRAGMA journal_mode');
      expect(mode?.journal_mode).toBe('delete');
      expect(readdirSync(dirname(file)).filter((name) => name.includes('pre-switchyard'))).toEqual([]);
      expect(existsSync(`${file}-wal`)).toBe(false);
    }
  });

  it('refuses a database a newer Switchyard migrated', async () => {
    database = await createTestDatabase();
    const first = await startOn(database.target);
    await first.close();
    await runSql(database.target, [
      "INSERT INTO switchyard_migrations (name, timestamp) VALUES ('999-from-the-future', '2030-01-01T00:00:00.000Z')",
    ]);
    await expect(startOn(database.target)).rejects.toThrow(
      /newer Switchyard \(migrations 999-from-the-future/,
    );
  });

  it('refuses duplicate dashboard buckets before changing anything', async () => {
    database = await createTestDatabase();
    await writeNewApiDatabase(database.target, 'http://127.0.0.1:9');
    await runSql(database.target, [
      'INSERT INTO quota_data (user_id, username, model_name, created_at, token_used, count, quota) SELECT user_id, username, model_name, created_at, 1, 1, 1 FROM quota_data WHERE id = 1',
    ]);
    const before = await snapshot(database);
    await expect(startOn(database.target)).rejects.toThrow(
      /quota_data holds 1 \(user_id, model_name, created_at\) bucket/,
    );
    expect(await snapshot(database)).toEqual(before);
  });

  it('repairs the half-adopted state: migrations recorded, legacy columns', async () => {
    database = await createTestDatabase();
    await writeNewApiDatabase(database.target, 'http://127.0.0.1:9');
    // What a Switchyard without adoption left behind: its migrations ran, the legacy tables kept their columns.
    const handle = openDatabase(database.target);
    await migrateDatabases(handle.db as never, null);
    await handle.destroy();
    const [recorded] = await querySql<{ n: number | string }>(
      database.target,
      'SELECT count(*) AS n FROM switchyard_migrations',
    );
    expect(Number(recorded?.n)).toBeGreaterThan(0);

    const server = await startOn(database.target);
    try {
      expect(server.lines).toContain('adopt: added column channels.param_override text (null)');
      const root = await server.login('root', passwords.root);
      const channels = envelope(await root.get('/api/channel/?p=0&page_size=10')).data;
      expect(channels).toHaveLength(2);
    } finally {
      await server.close();
    }
  });
});

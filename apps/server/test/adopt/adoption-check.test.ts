import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkAdoption } from '../../src/db/adopt/adoption-check.ts';
import { createTestDatabase, type TestDatabase, testDatabaseKind } from '../support/test-database.ts';
import { querySql, writeNewApiDatabase } from './adopt-support.ts';

const repositoryRoot = fileURLToPath(new URL('../../../../', import.meta.url));

describe('npm run adopt -- --check', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase();
    await writeNewApiDatabase(database.target, 'http://127.0.0.1:9');
  });
  afterAll(async () => {
    await database?.drop();
  });

  const columnsOf = (table: string) =>
    database.target.kind === 'sqlite'
      ? querySql<{ name: string }>(database.target, `SELECT name FROM pragma_table_info('${table}')`)
      : querySql<{ name: string }>(
          database.target,
          `SELECT column_name AS name FROM information_schema.columns WHERE table_name = '${table}' AND table_schema = ${database.target.kind === 'postgres' ? 'current_schema()' : 'database()'}`,
        );

  it('names the product, counts the rows and lists the columns it would add, changing nothing', async () => {
    const before = (await columnsOf('channels')).length;
    const lines = await checkAdoption(database.target, true);
    expect(lines[0]).toBe('database: new-api (v0.4.8 or later)');
    expect(lines).toContain('  users: 3 rows');
    expect(lines).toContain('  logs: 4 rows');
    expect(lines).toContain('  channels.param_override text (null)');
    expect(lines).toContain("  top_ups.payment_method varchar(32) not null default ''");
    expect((await columnsOf('channels')).length).toBe(before);
    expect(await querySql(database.target, 'SELECT 1 FROM users')).toHaveLength(3);
  });

  if (testDatabaseKind === 'sqlite') {
    it('runs as a command on SQLITE_PATH with new-api suffix', async () => {
      const { stdout } = await promisify(execFile)('npm', ['run', '--silent', 'adopt', '--', '--check'], {
        cwd: repositoryRoot,
        env: { ...process.env, SQLITE_PATH: `${database.target.location}?_busy_timeout=30000`, SQL_DSN: '' },
      });
      expect(stdout).toContain('database: new-api (v0.4.8 or later)');
      expect(stdout).toContain('  midjourneys.token_id integer not null default 0');
      const [mode] = await querySql<{ journal_mode: string }>(database.target, 'PRAGMA journal_mode');
      expect(mode?.journal_mode).toBe('delete');
    });
  }
});

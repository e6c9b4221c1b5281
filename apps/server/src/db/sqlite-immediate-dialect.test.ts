import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { ImmediateSqliteDialect } from './sqlite-immediate-dialect.ts';

/**
 * Two connections to one SQLite file, as two processes sharing it: a Kysely transaction that
 * reads and then writes while the other connection commits in between.
 */
describe('ImmediateSqliteDialect', () => {
  let directory = '';
  afterEach(() => {
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  const open = () => {
    directory = mkdtempSync(join(tmpdir(), 'immediate-dialect-'));
    const file = join(directory, 'shared.db');
    const first = new SQLite(file);
    first.pragma('journal_mode = WAL');
    first.exec('CREATE TABLE balances (id INTEGER PRIMARY KEY, quota INTEGER NOT NULL)');
    first.exec('INSERT INTO balances VALUES (1, 100)');
    const other = new SQLite(file);
    // No waiting: a write that finds the file locked fails at once.
    other.pragma('busy_timeout = 0');
    return { first, other };
  };

  /** Reads the balance, lets the other connection write, then writes the balance read plus 1. */
  const readOtherWriteThenWrite = (
    db: Kysely<{ balances: { id: number; quota: number } }>,
    other: SQLite.Database,
  ) =>
    db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('balances')
        .select('quota')
        .where('id', '=', 1)
        .executeTakeFirstOrThrow();
      let otherWrote = true;
      try {
        other.prepare('UPDATE balances SET quota = quota + 1000 WHERE id = 1').run();
      } catch {
        otherWrote = false;
      }
      await trx
        .updateTable('balances')
        .set({ quota: row.quota + 1 })
        .where('id', '=', 1)
        .execute();
      return otherWrote;
    });

  it('holds the write lock from the start: the other writer waits, and the read-then-write commits', async () => {
    const { first, other } = open();
    const db = new Kysely<{ balances: { id: number; quota: number } }>({
      dialect: new ImmediateSqliteDialect({ database: first }),
    });
    try {
      await expect(readOtherWriteThenWrite(db, other)).resolves.toBe(false);
      const { rows } = await sql<{ quota: number }>`SELECT quota FROM balances`.execute(db);
      expect(rows[0]!.quota).toBe(101);
    } finally {
      await db.destroy();
      other.close();
    }
  });

  it('Kysely’s own dialect begins DEFERRED: the same transaction fails at its first write', async () => {
    const { first, other } = open();
    const db = new Kysely<{ balances: { id: number; quota: number } }>({
      dialect: new SqliteDialect({ database: first }),
    });
    try {
      await expect(readOtherWriteThenWrite(db, other)).rejects.toThrow(/busy|locked/i);
      const { rows } = await sql<{ quota: number }>`SELECT quota FROM balances`.execute(db);
      expect(rows[0]!.quota).toBe(1_100);
    } finally {
      await db.destroy();
      other.close();
    }
  });
});

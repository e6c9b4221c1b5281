import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrateDatabases } from '../migrate.ts';
import { logTableColumns, mainTableColumns } from './required-columns.ts';
import { readSchema } from './schema-inspector.ts';

describe('the columns adoption adds', () => {
  it('are exactly the columns the migrations create, table by table', async () => {
    const db = new Kysely<unknown>({ dialect: new SqliteDialect({ database: new SQLite(':memory:') }) });
    try {
      await migrateDatabases(db, null);
      const schema = await readSchema(db, 'sqlite');
      const keys = new Set(['id']);
      for (const [table, columns] of Object.entries({ ...mainTableColumns, ...logTableColumns })) {
        const migrated = [...(schema.get(table)?.keys() ?? [])].filter((name) => !keys.has(name)).sort();
        expect({ table, columns: columns.map((column) => column.name).sort() }).toEqual({
          table,
          columns: migrated,
        });
      }
    } finally {
      await db.destroy();
    }
  });
});

import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Kysely, type Migration, Migrator, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../database.ts';
import { migrateDatabases } from '../migrate.ts';
import * as coreTables from './001-core-tables.ts';
import * as reservationLedger from './002-reservation-ledger.ts';
import * as ledgerSettlement from './003-ledger-settlement.ts';

describe('migration 008: SQLite reservations clustered by id', () => {
  let directory = '';
  let handle: DatabaseHandle | undefined;
  afterEach(async () => {
    await handle?.destroy();
    if (directory) rmSync(directory, { recursive: true, force: true });
  });

  it('rebuilds the table WITHOUT ROWID and keeps every row it had', async () => {
    directory = mkdtempSync(join(tmpdir(), 'switchyard-008-'));
    handle = openDatabase({ kind: 'sqlite', location: join(directory, 'ledger.db') });
    const db = handle.db as unknown as Kysely<unknown>;
    // The schema as 003 left it, with a reserved row and a settled one waiting for the writer.
    const before: Record<string, Migration> = {
      '001-core-tables': coreTables,
      '002-reservation-ledger': reservationLedger,
      '003-ledger-settlement': ledgerSettlement,
    };
    const migrator = new Migrator({
      db,
      provider: { getMigrations: async () => before },
      migrationTableName: 'switchyard_migrations',
      migrationLockTableName: 'switchyard_migrations_lock',
    });
    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    await sql`INSERT INTO reservations (id, request_id, user_id, token_id, token_limited, amount, created_at, instance_id)
      VALUES ('a-1', 'req-1', 3, 4, 1, 500, 1700000000000, 'node-a')`.execute(db);
    await sql`INSERT INTO reservations (id, request_id, user_id, token_id, token_limited, amount, created_at, instance_id, state, charged, channel_id, entry)
      VALUES ('b-2', 'req-2', 3, 0, 0, 0, 1700000000001, 'node-a', 'settled', 120, 9, '{"log":1}')`.execute(
      db,
    );
    const rowsBefore = await sql`SELECT * FROM reservations ORDER BY id`.execute(db);

    await migrateDatabases(db, null);

    const table = await sql<{
      sql: string;
    }>`SELECT sql FROM sqlite_master WHERE name = 'reservations'`.execute(db);
    expect(table.rows[0]?.sql).toMatch(/WITHOUT ROWID$/);
    const indexes = await sql<{
      name: string;
    }>`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'reservations'`.execute(db);
    // The primary key is the table itself: no separate index beside it.
    expect(indexes.rows).toEqual([]);
    expect((await sql`SELECT * FROM reservations ORDER BY id`.execute(db)).rows).toEqual(rowsBefore.rows);
    await expect(sql`SELECT rowid FROM reservations`.execute(db)).rejects.toThrow(/rowid/);
    // Defaults still apply to what the ledger leaves out.
    await sql`INSERT INTO reservations (id, user_id, amount) VALUES ('c-3', 5, 7)`.execute(db);
    const added = await sql<{
      state: string;
      entry: string | null;
      charged: number;
    }>`SELECT state, entry, charged FROM reservations WHERE id = 'c-3'`.execute(db);
    expect(added.rows[0]).toEqual({ state: 'reserved', entry: null, charged: 0 });
  });
});

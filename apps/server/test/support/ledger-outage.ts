import { sql } from 'kysely';
import type { DatabaseHandle } from '../../src/db/database.ts';
import { testDatabaseKind } from './test-database.ts';

/**
 * A real ledger outage: a trigger on the ledger table makes every UPDATE and DELETE of it fail
 * (reservations still insert), so settlements and refunds are refused until it is dropped.
 */
const OUTAGE: Record<typeof testDatabaseKind, { start: string[]; end: string[] }> = {
  sqlite: {
    start: [
      "CREATE TRIGGER outage_update BEFORE UPDATE ON reservations BEGIN SELECT RAISE(ABORT, 'ledger outage'); END",
      "CREATE TRIGGER outage_delete BEFORE DELETE ON reservations BEGIN SELECT RAISE(ABORT, 'ledger outage'); END",
    ],
    end: ['DROP TRIGGER outage_update', 'DROP TRIGGER outage_delete'],
  },
  postgres: {
    start: [
      "CREATE OR REPLACE FUNCTION ledger_outage() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'ledger outage'; END $$",
      'CREATE TRIGGER outage BEFORE UPDATE OR DELETE ON reservations FOR EACH ROW EXECUTE FUNCTION ledger_outage()',
    ],
    end: ['DROP TRIGGER outage ON reservations'],
  },
  mysql: {
    start: [
      "CREATE TRIGGER outage_update BEFORE UPDATE ON reservations FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'ledger outage'",
      "CREATE TRIGGER outage_delete BEFORE DELETE ON reservations FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'ledger outage'",
    ],
    end: ['DROP TRIGGER outage_update', 'DROP TRIGGER outage_delete'],
  },
};

async function run(handle: DatabaseHandle, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(handle.db);
}

/** Runs `during` while every UPDATE and DELETE of the ledger fails. */
export async function duringOutage(handle: DatabaseHandle, during: () => Promise<void>): Promise<void> {
  await run(handle, OUTAGE[testDatabaseKind].start);
  try {
    await during();
  } finally {
    await run(handle, OUTAGE[testDatabaseKind].end);
  }
}

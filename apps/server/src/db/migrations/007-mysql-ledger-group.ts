import { type Kysely, sql } from 'kysely';
import {
  MYSQL_LEDGER_GROUP_ROUTINE,
  MYSQL_READ_COMMITTED,
  mysqlLedgerRoutines,
} from '../../billing/ledger/mysql/mysql-routines.ts';
import { dialectOf } from './column-types.ts';

/**
 * MySQL/MariaDB: reserve, settle and refund again, now at READ COMMITTED, then
 * `switchyard_ledger_group`, one user's ledger calls of one event-loop turn in one CALL
 * (billing/ledger/mysql/mysql-routines.ts holds their SQL text and why). PostgreSQL and SQLite
 * need nothing here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'mysql') return;
  for (const statement of mysqlLedgerRoutines(MYSQL_READ_COMMITTED)) await sql.raw(statement).execute(db);
  for (const statement of MYSQL_LEDGER_GROUP_ROUTINE) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

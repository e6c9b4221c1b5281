import { type Kysely, sql } from 'kysely';
import { mysqlLedgerRoutines } from '../../billing/ledger/mysql/mysql-routines.ts';
import { POSTGRES_LEDGER_ROUTINES } from '../../billing/ledger/postgres/postgres-routines.ts';
import { dialectOf } from './column-types.ts';

/**
 * Reserve, settle and refund as one server-side routine each: PostgreSQL functions
 * (billing/ledger/postgres/postgres-routines.ts) and MySQL/MariaDB procedures
 * (billing/ledger/mysql/mysql-routines.ts, at the connection's isolation level). Their SQL text
 * lives next to the TypeScript that calls them; this migration runs it. SQLite needs none of
 * this: its hot statements run synchronously in-process (billing/ledger/sqlite/).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const kind = dialectOf(db);
  if (kind === 'postgres') {
    for (const statement of POSTGRES_LEDGER_ROUTINES) await sql.raw(statement).execute(db);
  } else if (kind === 'mysql') {
    for (const statement of mysqlLedgerRoutines()) await sql.raw(statement).execute(db);
  }
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

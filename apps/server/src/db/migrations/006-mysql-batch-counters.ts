import { type Kysely, sql } from 'kysely';
import { MYSQL_BATCH_COUNTERS_ROUTINE } from '../../billing/ledger/mysql/mysql-routines.ts';
import { dialectOf } from './column-types.ts';

/**
 * MySQL/MariaDB: `switchyard_batch_counters`, the one CALL that ends the settlement writer's
 * batch (billing/ledger/mysql/mysql-routines.ts holds its SQL text and why). PostgreSQL and
 * SQLite need nothing here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'mysql') return;
  for (const statement of MYSQL_BATCH_COUNTERS_ROUTINE) await sql.raw(statement).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

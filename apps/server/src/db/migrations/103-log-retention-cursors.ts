import type { Kysely } from 'kysely';

/**
 * Where each log retention rule has walked to (logs/retention/): the highest logs.id it has
 * handled. A rule walks the logs table by id from there, so rows it already passed (kept rows of
 * other types, blanked details) are never read again, and a restart continues where it stopped.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('log_retention_cursors')
    .ifNotExists()
    .addColumn('rule', 'varchar(32)', (c) => c.primaryKey())
    .addColumn('last_id', 'bigint', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

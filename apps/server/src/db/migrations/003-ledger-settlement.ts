import type { Kysely } from 'kysely';
import { notNullDefault } from './column-types.ts';

/**
 * Ledger rows outlive settlement: a settled row (state 'settled') carries what is still to be
 * written — the consume log row and the counter increments (`charged`, `channel_id`, `entry`) —
 * until the settlement writer's batch writes them and deletes the row, so a kill -9 in between
 * loses nothing. `instance_id` names the process holding the row; `node_instances` holds one row
 * per living process with its heartbeat (milliseconds), so reconciliation only touches rows of
 * dead processes. `entry` is TEXT, nullable without a default (MySQL forbids TEXT defaults).
 * SQLite adds one column per ALTER TABLE.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const columns = [
    ['state', 'varchar(16)', notNullDefault('reserved')],
    ['instance_id', 'varchar(40)', notNullDefault('')],
    ['charged', 'bigint', notNullDefault(0)],
    ['channel_id', 'integer', notNullDefault(0)],
  ] as const;
  for (const [name, type, build] of columns) {
    await db.schema.alterTable('reservations').addColumn(name, type, build).execute();
  }
  await db.schema.alterTable('reservations').addColumn('entry', 'text').execute();
  await db.schema
    .createIndex('idx_reservations_instance_state')
    .ifNotExists()
    .on('reservations')
    .columns(['instance_id', 'state'])
    .execute();
  await db.schema
    .createTable('node_instances')
    .ifNotExists()
    .addColumn('id', 'varchar(40)', (c) => c.notNull().primaryKey())
    .addColumn('node_type', 'varchar(16)', notNullDefault(''))
    .addColumn('started_at', 'bigint', notNullDefault(0))
    .addColumn('heartbeat_at', 'bigint', notNullDefault(0))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

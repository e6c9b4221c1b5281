import type { Kysely } from 'kysely';
import { dialectOf, notNullDefault } from './column-types.ts';

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
  // Reconciliation finds rows by holder (instance_id) only. Every index is written by reserve and
  // the batch's delete on the hot path, so: no state column in it (settle would move the entry),
  // the created_at index of 002 (used by the old start-up pass) goes, and SQLite (one node, the
  // table holds only calls in flight, a sweep scans it) has none: ~10% of the ledger's CPU there.
  const kind = dialectOf(db);
  if (kind !== 'sqlite') {
    await db.schema
      .createIndex('idx_reservations_instance')
      .ifNotExists()
      .on('reservations')
      .column('instance_id')
      .execute();
  }
  // MySQL names the table in DROP INDEX; SQLite and PostgreSQL refuse it.
  const dropOld = db.schema.dropIndex('idx_reservations_created_at');
  await (kind === 'mysql' ? dropOld.on('reservations') : dropOld.ifExists()).execute();
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

import type { Kysely } from 'kysely';
import { notNullDefault } from './column-types.ts';

/**
 * The reservation ledger: one row per quota reservation that has not been settled or refunded
 * yet. Written in the reservation's transaction, deleted in the settlement's, so a row that
 * outlives its process (kill -9, power loss) is found and reconciled at the next start.
 * `created_at` is in milliseconds; `id` is chosen by the node (no auto-increment round trip).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('reservations')
    .ifNotExists()
    .addColumn('id', 'varchar(40)', (c) => c.notNull().primaryKey())
    .addColumn('request_id', 'varchar(64)', notNullDefault(''))
    .addColumn('user_id', 'integer', notNullDefault(0))
    .addColumn('token_id', 'integer', notNullDefault(0))
    .addColumn('token_limited', 'integer', notNullDefault(0))
    .addColumn('amount', 'bigint', notNullDefault(0))
    .addColumn('created_at', 'bigint', notNullDefault(0))
    .execute();
  await db.schema
    .createIndex('idx_reservations_created_at')
    .ifNotExists()
    .on('reservations')
    .column('created_at')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

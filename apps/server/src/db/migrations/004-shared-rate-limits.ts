import type { Kysely } from 'kysely';
import { notNullDefault } from './column-types.ts';

/**
 * Database-backed model request rate limits for nodes without Redis (ADR-19): one row per key
 * that a hit locks (`SELECT … FOR UPDATE`) while it counts, and one row per admitted hit.
 * Keys stay within 191 characters so the primary key and the (key, hit_at) index fit MySQL's
 * index length limit with utf8mb4; longer keys are hashed by the limiter. Times in milliseconds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limit_keys')
    .ifNotExists()
    .addColumn('key', 'varchar(191)', (c) => c.notNull().primaryKey())
    .execute();
  await db.schema
    .createTable('rate_limit_hits')
    .ifNotExists()
    .addColumn('ticket', 'varchar(64)', (c) => c.notNull().primaryKey())
    .addColumn('key', 'varchar(191)', (c) => c.notNull())
    .addColumn('hit_at', 'bigint', notNullDefault(0))
    .addColumn('expires_at', 'bigint', notNullDefault(0))
    .execute();
  await db.schema
    .createIndex('idx_rate_limit_hits_key_hit_at')
    .ifNotExists()
    .on('rate_limit_hits')
    .columns(['key', 'hit_at'])
    .execute();
  await db.schema
    .createIndex('idx_rate_limit_hits_expires_at')
    .ifNotExists()
    .on('rate_limit_hits')
    .column('expires_at')
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

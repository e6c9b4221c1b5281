import type { Kysely } from 'kysely';
import { notNullDefault } from './column-types.ts';

/**
 * Console sessions revoked on the server, so every node refuses them: `revoked_sessions` holds a
 * digest of each logged-out cookie until the cookie would have expired anyway, and
 * `session_generations` a per-user counter that disabling or deleting a user raises (a session
 * signed for an older generation is refused). Times in seconds.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('revoked_sessions')
    .ifNotExists()
    .addColumn('id', 'varchar(64)', (c) => c.notNull().primaryKey())
    .addColumn('expires_at', 'bigint', notNullDefault(0))
    .execute();
  await db.schema
    .createIndex('idx_revoked_sessions_expires_at')
    .ifNotExists()
    .on('revoked_sessions')
    .column('expires_at')
    .execute();
  await db.schema
    .createTable('session_generations')
    .ifNotExists()
    .addColumn('user_id', 'integer', (c) => c.notNull().primaryKey())
    .addColumn('generation', 'integer', notNullDefault(0))
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

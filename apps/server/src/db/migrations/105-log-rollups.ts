import type { Kysely } from 'kysely';
import { notNullDefault } from './column-types.ts';

/**
 * The consume-log aggregates (logs/rollup/): `log_rollups`, sums of count, quota and tokens per
 * bucket of time (`span` seconds from `bucket`) for one grain (which of the stat filters' columns
 * it keeps; the others hold 0 or ''), and `log_rollup_state`, the id of the last logs row counted
 * in them. The primary key leads with grain, span and user_id, so one index serves both a bucket
 * range of a grain and one user's buckets; the admin's username and token-name filters have their
 * own indexes. Written only by the master's roll-up job, never by a relay call.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const s = db.schema;
  await s
    .createTable('log_rollups')
    .ifNotExists()
    .addColumn('grain', 'smallint', (c) => c.notNull())
    .addColumn('span', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer', notNullDefault(0))
    .addColumn('bucket', 'bigint', (c) => c.notNull())
    .addColumn('type', 'integer', notNullDefault(0))
    .addColumn('username', 'varchar(64)', notNullDefault(''))
    .addColumn('token_name', 'varchar(255)', notNullDefault(''))
    .addColumn('model_name', 'varchar(255)', notNullDefault(''))
    .addColumn('channel_id', 'integer', notNullDefault(0))
    .addColumn('group', 'varchar(64)', notNullDefault(''))
    .addColumn('count', 'bigint', notNullDefault(0))
    .addColumn('quota', 'bigint', notNullDefault(0))
    .addColumn('prompt_tokens', 'bigint', notNullDefault(0))
    .addColumn('completion_tokens', 'bigint', notNullDefault(0))
    .addPrimaryKeyConstraint('log_rollups_pk', [
      'grain',
      'span',
      'user_id',
      'bucket',
      'type',
      'username',
      'token_name',
      'model_name',
      'channel_id',
      'group',
    ])
    .execute();
  await s
    .createIndex('idx_log_rollups_username')
    .ifNotExists()
    .on('log_rollups')
    .columns(['username', 'grain', 'span', 'bucket'])
    .execute();
  await s
    .createIndex('idx_log_rollups_token_name')
    .ifNotExists()
    .on('log_rollups')
    .columns(['token_name', 'grain', 'span', 'bucket'])
    .execute();
  await s
    .createTable('log_rollup_state')
    .ifNotExists()
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('rolled_up_through', 'bigint', notNullDefault(0))
    .execute();
  await db
    .insertInto('log_rollup_state' as never)
    .values({ id: 1, rolled_up_through: 0 } as never)
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

import type { Kysely } from 'kysely';
import { dialectOf, notNullDefault, withIdColumn } from './column-types.ts';

/** The logs table; runs on the main database, or on LOG_SQL_DSN's database when that is set. */
export async function up(db: Kysely<unknown>): Promise<void> {
  const kind = dialectOf(db);
  const s = db.schema;
  await withIdColumn(s.createTable('logs').ifNotExists(), kind, true)
    .addColumn('user_id', 'integer', notNullDefault(0))
    .addColumn('created_at', 'bigint', notNullDefault(0))
    .addColumn('type', 'integer', notNullDefault(0))
    .addColumn('content', 'text')
    .addColumn('username', 'varchar(64)', notNullDefault(''))
    .addColumn('token_name', 'varchar(255)', notNullDefault(''))
    .addColumn('model_name', 'varchar(255)', notNullDefault(''))
    .addColumn('quota', 'bigint', notNullDefault(0))
    .addColumn('prompt_tokens', 'integer', notNullDefault(0))
    .addColumn('completion_tokens', 'integer', notNullDefault(0))
    .addColumn('use_time', 'integer', notNullDefault(0))
    .addColumn('is_stream', 'integer', notNullDefault(0))
    .addColumn('channel_id', 'integer', notNullDefault(0))
    .addColumn('token_id', 'integer', notNullDefault(0))
    .addColumn('group', 'varchar(64)', notNullDefault(''))
    .addColumn('ip', 'varchar(64)', notNullDefault(''))
    .addColumn('other', 'text')
    .execute();
  const indexes: Array<[string, string[]]> = [
    ['idx_logs_created_at_type', ['created_at', 'type']],
    ['idx_logs_user_created', ['user_id', 'created_at']],
    ['idx_logs_username', ['username']],
    ['idx_logs_token_name', ['token_name']],
    ['idx_logs_model_name', ['model_name', 'username']],
    ['idx_logs_channel_id', ['channel_id']],
    ['idx_logs_token_id', ['token_id']],
    ['idx_logs_group', ['group']],
  ];
  for (const [name, columns] of indexes) {
    await s.createIndex(name).ifNotExists().on('logs').columns(columns).execute();
  }
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

import type { Kysely } from 'kysely';
import { dialectOf, notNullDefault, withIdColumn } from './column-types.ts';

/**
 * All tables of the data model except the logs (which may live in a separate database).
 * Text columns are nullable and carry no default (MySQL forbids TEXT defaults).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const kind = dialectOf(db);
  const s = db.schema;

  await withIdColumn(s.createTable('users').ifNotExists(), kind)
    .addColumn('username', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('password', 'varchar(255)', notNullDefault(''))
    .addColumn('display_name', 'varchar(64)', notNullDefault(''))
    .addColumn('role', 'integer', notNullDefault(1))
    .addColumn('status', 'integer', notNullDefault(1))
    .addColumn('email', 'varchar(255)', notNullDefault(''))
    .addColumn('github_id', 'varchar(255)', notNullDefault(''))
    .addColumn('wechat_id', 'varchar(255)', notNullDefault(''))
    .addColumn('telegram_id', 'varchar(255)', notNullDefault(''))
    .addColumn('linux_do_id', 'varchar(255)', notNullDefault(''))
    .addColumn('oidc_id', 'varchar(255)', notNullDefault(''))
    .addColumn('access_token', 'varchar(64)', (c) => c.unique())
    .addColumn('quota', 'bigint', notNullDefault(0))
    .addColumn('used_quota', 'bigint', notNullDefault(0))
    .addColumn('request_count', 'bigint', notNullDefault(0))
    .addColumn('group', 'varchar(64)', notNullDefault('default'))
    .addColumn('aff_code', 'varchar(32)', (c) => c.unique())
    .addColumn('aff_count', 'integer', notNullDefault(0))
    .addColumn('aff_quota', 'bigint', notNullDefault(0))
    .addColumn('aff_history', 'bigint', notNullDefault(0))
    .addColumn('inviter_id', 'integer', notNullDefault(0))
    .addColumn('setting', 'text')
    .addColumn('created_time', 'bigint', notNullDefault(0))
    .addColumn('deleted_at', 'bigint')
    .execute();
  for (const column of [
    'display_name',
    'email',
    'github_id',
    'wechat_id',
    'telegram_id',
    'linux_do_id',
    'inviter_id',
  ]) {
    await s.createIndex(`idx_users_${column}`).ifNotExists().on('users').column(column).execute();
  }
  await s.createIndex('idx_users_group').ifNotExists().on('users').column('group').execute();

  await withIdColumn(s.createTable('tokens').ifNotExists(), kind)
    .addColumn('user_id', 'integer', (c) => c.notNull())
    .addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('status', 'integer', notNullDefault(1))
    .addColumn('name', 'varchar(255)', notNullDefault(''))
    .addColumn('created_time', 'bigint', notNullDefault(0))
    .addColumn('accessed_time', 'bigint', notNullDefault(0))
    .addColumn('expired_time', 'bigint', notNullDefault(-1))
    .addColumn('remain_quota', 'bigint', notNullDefault(0))
    .addColumn('unlimited_quota', 'integer', notNullDefault(0))
    .addColumn('model_limits_enabled', 'integer', notNullDefault(0))
    .addColumn('model_limits', 'varchar(1024)', notNullDefault(''))
    .addColumn('allow_ips', 'text')
    .addColumn('used_quota', 'bigint', notNullDefault(0))
    .addColumn('group', 'varchar(64)', notNullDefault(''))
    .addColumn('deleted_at', 'bigint')
    .execute();
  await s.createIndex('idx_tokens_user_id').ifNotExists().on('tokens').columns(['user_id', 'id']).execute();
  await s.createIndex('idx_tokens_name').ifNotExists().on('tokens').column('name').execute();

  await withIdColumn(s.createTable('channels').ifNotExists(), kind)
    .addColumn('type', 'integer', notNullDefault(0))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('openai_organization', 'varchar(255)')
    .addColumn('test_model', 'varchar(255)')
    .addColumn('status', 'integer', notNullDefault(1))
    .addColumn('name', 'varchar(255)', notNullDefault(''))
    .addColumn('weight', 'integer', notNullDefault(0))
    .addColumn('created_time', 'bigint', notNullDefault(0))
    .addColumn('test_time', 'bigint', notNullDefault(0))
    .addColumn('response_time', 'integer', notNullDefault(0))
    .addColumn('base_url', 'varchar(1024)', notNullDefault(''))
    .addColumn('other', 'text')
    .addColumn('balance', 'double precision', notNullDefault(0))
    .addColumn('balance_updated_time', 'bigint', notNullDefault(0))
    .addColumn('models', 'text')
    .addColumn('group', 'varchar(255)', notNullDefault('default'))
    .addColumn('used_quota', 'bigint', notNullDefault(0))
    .addColumn('model_mapping', 'text')
    .addColumn('status_code_mapping', 'varchar(1024)', notNullDefault(''))
    .addColumn('priority', 'bigint', notNullDefault(0))
    .addColumn('auto_ban', 'integer', notNullDefault(1))
    .addColumn('other_info', 'text')
    .addColumn('tag', 'varchar(255)')
    .addColumn('setting', 'text')
    .addColumn('param_override', 'text')
    .addColumn('header_override', 'text')
    .addColumn('max_input_tokens', 'integer', notNullDefault(0))
    .execute();
  await s.createIndex('idx_channels_name').ifNotExists().on('channels').column('name').execute();
  await s.createIndex('idx_channels_tag').ifNotExists().on('channels').column('tag').execute();
  await s.createIndex('idx_channels_status').ifNotExists().on('channels').column('status').execute();

  await s
    .createTable('abilities')
    .ifNotExists()
    .addColumn('group', 'varchar(64)', (c) => c.notNull())
    .addColumn('model', 'varchar(255)', (c) => c.notNull())
    .addColumn('channel_id', 'integer', (c) => c.notNull())
    .addColumn('enabled', 'integer', notNullDefault(1))
    .addColumn('priority', 'bigint', notNullDefault(0))
    .addColumn('weight', 'integer', notNullDefault(0))
    .addColumn('tag', 'varchar(255)')
    .addPrimaryKeyConstraint('abilities_pk', ['group', 'model', 'channel_id'])
    .execute();
  await s
    .createIndex('idx_abilities_channel_id')
    .ifNotExists()
    .on('abilities')
    .column('channel_id')
    .execute();
  await s
    .createIndex('idx_abilities_model')
    .ifNotExists()
    .on('abilities')
    .columns(['model', 'enabled'])
    .execute();
  await s.createIndex('idx_abilities_tag').ifNotExists().on('abilities').column('tag').execute();

  await s
    .createTable('options')
    .ifNotExists()
    .addColumn('key', 'varchar(191)', (c) => c.primaryKey())
    .addColumn('value', 'text')
    .execute();

  await withIdColumn(s.createTable('redemptions').ifNotExists(), kind)
    .addColumn('user_id', 'integer', notNullDefault(0))
    .addColumn('key', 'varchar(64)', (c) => c.notNull().unique())
    .addColumn('status', 'integer', notNullDefault(1))
    .addColumn('name', 'varchar(255)', notNullDefault(''))
    .addColumn('quota', 'bigint', notNullDefault(100))
    .addColumn('created_time', 'bigint', notNullDefault(0))
    .addColumn('redeemed_time', 'bigint', notNullDefault(0))
    .addColumn('used_user_id', 'integer', notNullDefault(0))
    .addColumn('deleted_at', 'bigint')
    .execute();
  await s.createIndex('idx_redemptions_name').ifNotExists().on('redemptions').column('name').execute();

  await withIdColumn(s.createTable('midjourneys').ifNotExists(), kind)
    .addColumn('code', 'integer', notNullDefault(0))
    .addColumn('user_id', 'integer', notNullDefault(0))
    .addColumn('action', 'varchar(40)', notNullDefault(''))
    .addColumn('mj_id', 'varchar(191)', notNullDefault(''))
    .addColumn('prompt', 'text')
    .addColumn('prompt_en', 'text')
    .addColumn('description', 'text')
    .addColumn('state', 'text')
    .addColumn('submit_time', 'bigint', notNullDefault(0))
    .addColumn('start_time', 'bigint', notNullDefault(0))
    .addColumn('finish_time', 'bigint', notNullDefault(0))
    .addColumn('image_url', 'text')
    .addColumn('status', 'varchar(20)', notNullDefault(''))
    .addColumn('progress', 'varchar(30)', notNullDefault(''))
    .addColumn('fail_reason', 'text')
    .addColumn('channel_id', 'integer', notNullDefault(0))
    .addColumn('quota', 'bigint', notNullDefault(0))
    .addColumn('token_id', 'integer', notNullDefault(0))
    .addColumn('buttons', 'text')
    .addColumn('properties', 'text')
    .execute();
  for (const column of ['user_id', 'mj_id', 'submit_time', 'status', 'channel_id']) {
    await s.createIndex(`idx_midjourneys_${column}`).ifNotExists().on('midjourneys').column(column).execute();
  }

  await withIdColumn(s.createTable('tasks').ifNotExists(), kind, true)
    .addColumn('created_at', 'bigint', notNullDefault(0))
    .addColumn('updated_at', 'bigint', notNullDefault(0))
    .addColumn('task_id', 'varchar(191)', notNullDefault(''))
    .addColumn('platform', 'varchar(30)', notNullDefault(''))
    .addColumn('user_id', 'integer', notNullDefault(0))
    .addColumn('channel_id', 'integer', notNullDefault(0))
    .addColumn('token_id', 'integer', notNullDefault(0))
    .addColumn('quota', 'bigint', notNullDefault(0))
    .addColumn('action', 'varchar(40)', notNullDefault(''))
    .addColumn('status', 'varchar(20)', notNullDefault(''))
    .addColumn('fail_reason', 'text')
    .addColumn('submit_time', 'bigint', notNullDefault(0))
    .addColumn('start_time', 'bigint', notNullDefault(0))
    .addColumn('finish_time', 'bigint', notNullDefault(0))
    .addColumn('progress', 'varchar(20)', notNullDefault(''))
    .addColumn('properties', 'text')
    .addColumn('data', 'text')
    .execute();
  for (const column of ['task_id', 'user_id', 'channel_id', 'submit_time', 'status']) {
    await s.createIndex(`idx_tasks_${column}`).ifNotExists().on('tasks').column(column).execute();
  }

  await withIdColumn(s.createTable('top_ups').ifNotExists(), kind)
    .addColumn('user_id', 'integer', notNullDefault(0))
    .addColumn('amount', 'bigint', notNullDefault(0))
    .addColumn('money', 'double precision', notNullDefault(0))
    .addColumn('trade_no', 'varchar(191)', (c) => c.notNull().unique())
    .addColumn('payment_method', 'varchar(32)', notNullDefault(''))
    .addColumn('create_time', 'bigint', notNullDefault(0))
    .addColumn('complete_time', 'bigint', notNullDefault(0))
    .addColumn('status', 'varchar(20)', notNullDefault('pending'))
    .execute();
  await s.createIndex('idx_top_ups_user_id').ifNotExists().on('top_ups').column('user_id').execute();

  await withIdColumn(s.createTable('quota_data').ifNotExists(), kind)
    .addColumn('user_id', 'integer', notNullDefault(0))
    .addColumn('username', 'varchar(64)', notNullDefault(''))
    .addColumn('model_name', 'varchar(191)', notNullDefault(''))
    .addColumn('created_at', 'bigint', notNullDefault(0))
    .addColumn('token_used', 'bigint', notNullDefault(0))
    .addColumn('count', 'bigint', notNullDefault(0))
    .addColumn('quota', 'bigint', notNullDefault(0))
    .execute();
  await s
    .createIndex('uniq_quota_data_bucket')
    .ifNotExists()
    .unique()
    .on('quota_data')
    .columns(['user_id', 'model_name', 'created_at'])
    .execute();
  await s
    .createIndex('idx_quota_data_created_at')
    .ifNotExists()
    .on('quota_data')
    .column('created_at')
    .execute();
  await s
    .createIndex('idx_quota_data_model_user')
    .ifNotExists()
    .on('quota_data')
    .columns(['model_name', 'username'])
    .execute();

  await withIdColumn(s.createTable('setups').ifNotExists(), kind)
    .addColumn('version', 'varchar(50)', (c) => c.notNull())
    .addColumn('initialized_at', 'bigint', (c) => c.notNull())
    .execute();

  await withIdColumn(s.createTable('verifications').ifNotExists(), kind)
    .addColumn('purpose', 'varchar(32)', (c) => c.notNull())
    .addColumn('subject', 'varchar(255)', (c) => c.notNull())
    .addColumn('code', 'varchar(128)', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await s
    .createIndex('idx_verifications_subject')
    .ifNotExists()
    .on('verifications')
    .columns(['purpose', 'subject'])
    .execute();
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

import { type Kysely, sql } from 'kysely';
import { dialectOf, notNullDefault, withIdColumn } from './column-types.ts';

/**
 * The dashboard's all-user view: `quota_data_models`, quota_data summed per model and hour, kept
 * by the same flush that writes quota_data (logs/quota-data-repository.ts), filled here from the
 * quota_data already there (an adopted new-api database's history). quota_data gets indexes on
 * (user_id, created_at) and (username, created_at) for the per-user views: the unique
 * (user_id, model_name, created_at) index would read every hour of a user's history for a week.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const kind = dialectOf(db);
  const s = db.schema;
  await withIdColumn(s.createTable('quota_data_models').ifNotExists(), kind)
    .addColumn('model_name', 'varchar(191)', notNullDefault(''))
    .addColumn('created_at', 'bigint', notNullDefault(0))
    .addColumn('token_used', 'bigint', notNullDefault(0))
    .addColumn('count', 'bigint', notNullDefault(0))
    .addColumn('quota', 'bigint', notNullDefault(0))
    .execute();
  await s
    .createIndex('uniq_quota_data_models_bucket')
    .ifNotExists()
    .unique()
    .on('quota_data_models')
    .columns(['created_at', 'model_name'])
    .execute();
  await sumQuotaDataIntoModels(db);
  await s
    .createIndex('idx_quota_data_user_created')
    .ifNotExists()
    .on('quota_data')
    .columns(['user_id', 'created_at'])
    .execute();
  await s
    .createIndex('idx_quota_data_username_created')
    .ifNotExists()
    .on('quota_data')
    .columns(['username', 'created_at'])
    .execute();
}

/**
 * Fills an empty quota_data_models from quota_data (here, and for a benchmark that writes
 * quota_data directly into a migrated database).
 */
/** Fills quota_data_models from quota_data (also run by bench:logs after its bulk fill). */
export const SUM_QUOTA_DATA_INTO_MODELS = `INSERT INTO quota_data_models (model_name, created_at, token_used, count, quota)
    SELECT model_name, created_at, sum(token_used), sum(count), sum(quota) FROM quota_data
    GROUP BY model_name, created_at`;

export async function sumQuotaDataIntoModels(db: Kysely<unknown>): Promise<void> {
  await sql.raw(SUM_QUOTA_DATA_INTO_MODELS).execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

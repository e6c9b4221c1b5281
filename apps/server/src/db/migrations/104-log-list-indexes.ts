import { type Kysely, sql } from 'kysely';
import { dialectOf } from './column-types.ts';

/**
 * The indexes the log lists need on a table of millions of rows (ADR-48). The console filters by
 * one column and a time range and shows the newest rows first, so each filter column is indexed
 * together with created_at: the rows of one user, token, channel, group, type or model come out of
 * the index already in time order (no sort of a heavy user's million rows), and a capped count
 * reads no more index entries than it counts. The composites replace the single-column indexes
 * of 101 (same number of entries per row); model_name and type are new, for the model filter
 * (resolved to exact names first) and the type filter (error rows are a few percent).
 */
export const LOG_LIST_INDEXES: ReadonlyArray<[string, string[]]> = [
  ['idx_logs_username_created', ['username', 'created_at']],
  ['idx_logs_token_name_created', ['token_name', 'created_at']],
  ['idx_logs_channel_created', ['channel_id', 'created_at']],
  ['idx_logs_token_created', ['token_id', 'created_at']],
  ['idx_logs_group_created', ['group', 'created_at']],
  ['idx_logs_model_created', ['model_name', 'created_at']],
  ['idx_logs_type_created', ['type', 'created_at']],
];

/** The single-column indexes of 101 that the composites above replace. */
export const REPLACED_LOG_INDEXES = [
  'idx_logs_username',
  'idx_logs_token_name',
  'idx_logs_channel_id',
  'idx_logs_token_id',
  'idx_logs_group',
];

async function dropIndex(db: Kysely<unknown>, name: string): Promise<void> {
  if (dialectOf(db) !== 'mysql') {
    await db.schema.dropIndex(name).ifExists().execute();
    return;
  }
  // MySQL names an index within its table and (unlike MariaDB) has no DROP INDEX IF EXISTS.
  if (await mysqlHasIndex(db, name)) await db.schema.dropIndex(name).on('logs').execute();
}

async function mysqlHasIndex(db: Kysely<unknown>, name: string): Promise<boolean> {
  const found = await sql`SELECT 1 FROM information_schema.statistics
    WHERE table_schema = DATABASE() AND table_name = 'logs' AND index_name = ${name}`.execute(db);
  return found.rows.length > 0;
}

export async function up(db: Kysely<unknown>): Promise<void> {
  const mysql = dialectOf(db) === 'mysql';
  for (const [name, columns] of LOG_LIST_INDEXES) {
    // MySQL has no CREATE INDEX IF NOT EXISTS: an index already there is looked up instead.
    if (mysql && (await mysqlHasIndex(db, name))) continue;
    const create = db.schema.createIndex(name).on('logs').columns(columns);
    await (mysql ? create : create.ifNotExists()).execute();
  }
  for (const name of REPLACED_LOG_INDEXES) await dropIndex(db, name);
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

import { type Kysely, sql } from 'kysely';
import { dialectOf } from './column-types.ts';

/**
 * Drops `idx_logs_model_name` (model_name, username): no query can use it. The log filters match a
 * model by substring, ignoring case (`lower(model_name) LIKE lower('%…%')`, like-pattern.ts), which
 * no index serves on any of the three databases, and the dashboard's per-model figures come from
 * quota_data, not from logs. It cost every log row an index entry: ~2 µs of each relay call's
 * settlement on the benchmark machine (bench/analysis.md) and ~30 bytes of index per row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'mysql') {
    await db.schema.dropIndex('idx_logs_model_name').ifExists().execute();
    return;
  }
  // MySQL names an index within its table and (unlike MariaDB) has no DROP INDEX IF EXISTS.
  const found = await sql`SELECT 1 FROM information_schema.statistics
    WHERE table_schema = DATABASE() AND table_name = 'logs' AND index_name = 'idx_logs_model_name'`.execute(
    db,
  );
  if (found.rows.length > 0) await db.schema.dropIndex('idx_logs_model_name').on('logs').execute();
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

/**
 * Fills a PostgreSQL database whose schema the server's migrations made: rows go in with one
 * `INSERT … SELECT FROM unnest(…)` per batch; the logs' secondary indexes are read from
 * pg_indexes, dropped, and re-created after the fill, so the measured schema is the migrated one.
 */
import pg from 'pg';
import { SUM_QUOTA_DATA_INTO_MODELS } from '../../../apps/server/src/db/migrations/011-quota-data-models.ts';
import type { Row } from './console-rows.ts';
import type { LogFill } from './log-fill.ts';
import { LOG_COLUMNS, type LogBatch, type QuotaBucket } from './log-rows.ts';

const TYPES: Record<(typeof LOG_COLUMNS)[number], string> = {
  user_id: 'int4',
  created_at: 'int8',
  type: 'int4',
  content: 'text',
  username: 'text',
  token_name: 'text',
  model_name: 'text',
  quota: 'int8',
  prompt_tokens: 'int4',
  completion_tokens: 'int4',
  use_time: 'int4',
  is_stream: 'int4',
  channel_id: 'int4',
  token_id: 'int4',
  group: 'text',
  ip: 'text',
  other: 'text',
};

const quoted = (name: string) => `"${name}"`;

export async function openPostgresFill(dsn: string): Promise<LogFill> {
  const client = new pg.Client({ connectionString: dsn });
  await client.connect();
  await client.query('SET synchronous_commit = off');
  const { rows: indexes } = await client.query<{ indexname: string; indexdef: string }>(
    `SELECT indexname, indexdef FROM pg_indexes WHERE tablename = 'logs' AND indexname NOT IN
       (SELECT conname FROM pg_constraint WHERE conrelid = 'logs'::regclass)`,
  );
  for (const index of indexes) await client.query(`DROP INDEX ${quoted(index.indexname)}`);
  const insertLogs = `INSERT INTO logs (${LOG_COLUMNS.map(quoted).join(',')}) SELECT * FROM unnest(${LOG_COLUMNS.map(
    (column, i) => `$${i + 1}::${TYPES[column]}[]`,
  ).join(',')})`;
  let pending: Promise<unknown> = Promise.resolve();
  return {
    async insertLogs(batch: LogBatch) {
      // One batch in flight while the caller generates the next.
      await pending;
      pending = client.query(
        insertLogs,
        LOG_COLUMNS.map((column) => batch[column]),
      );
    },
    async insertBuckets(buckets: QuotaBucket[]) {
      await pending;
      pending = client.query(
        `INSERT INTO quota_data (user_id, username, model_name, created_at, token_used, count, quota)
         SELECT * FROM unnest($1::int4[], $2::text[], $3::text[], $4::int8[], $5::int8[], $6::int8[], $7::int8[])`,
        [
          buckets.map((b) => b.userId),
          buckets.map((b) => b.username),
          buckets.map((b) => b.modelName),
          buckets.map((b) => b.createdAt),
          buckets.map((b) => b.tokenUsed),
          buckets.map((b) => b.count),
          buckets.map((b) => b.quota),
        ],
      );
    },
    async insertConsoleRows(tables: Array<[string, Row[]]>) {
      await pending;
      for (const [table, rows] of tables) {
        if (rows.length === 0) continue;
        const columns = Object.keys(rows[0]!);
        for (let start = 0; start < rows.length; start += 500) {
          const chunk = rows.slice(start, start + 500);
          const params: unknown[] = [];
          const tuples = chunk.map((row) => {
            const marks = columns.map((column) => {
              params.push(row[column]);
              return `$${params.length}`;
            });
            return `(${marks.join(',')})`;
          });
          const updates = columns
            .filter((c) => c !== 'id')
            .map((c) => `${quoted(c)} = excluded.${quoted(c)}`);
          await client.query(
            `INSERT INTO ${table} (${columns.map(quoted).join(',')}) VALUES ${tuples.join(',')}
             ON CONFLICT (id) DO UPDATE SET ${updates.join(', ')}`,
            params,
          );
        }
        await client.query(
          `SELECT setval(pg_get_serial_sequence('${table}', 'id'), (SELECT max(id) FROM ${table}))`,
        );
      }
    },
    async finish() {
      await pending;
      // The dashboard's per-model sums follow quota_data, written here around the repository.
      await client.query(SUM_QUOTA_DATA_INTO_MODELS);
      await client.query(`SET maintenance_work_mem = '512MB'`);
      for (const index of indexes) await client.query(index.indexdef);
      await client.query('VACUUM ANALYZE logs');
      await client.query('ANALYZE');
      await client.end();
    },
    async close() {
      await pending.catch(() => undefined);
      await client.end().catch(() => undefined);
    },
  };
}

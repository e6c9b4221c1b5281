/**
 * Fills an SQLite file whose schema the server's migrations made: the logs' secondary indexes are
 * read from sqlite_master, dropped, and re-created after the rows are in (faster than keeping them
 * up to date row by row), so the measured schema is exactly the migrated one.
 */
import Database from 'better-sqlite3';
import { SUM_QUOTA_DATA_INTO_MODELS } from '../../../apps/server/src/db/migrations/011-quota-data-models.ts';
import type { Row } from './console-rows.ts';
import type { LogFill } from './log-fill.ts';
import { LOG_COLUMNS, type LogBatch, type QuotaBucket } from './log-rows.ts';

const quoted = (name: string) => `"${name}"`;

export function openSqliteFill(path: string): LogFill {
  const db = new Database(path);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -262144');
  const indexes = db
    .prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'logs' AND sql IS NOT NULL`,
    )
    .all() as Array<{ name: string; sql: string }>;
  for (const index of indexes) db.exec(`DROP INDEX ${quoted(index.name)}`);
  const rowsPerStatement = 50;
  const placeholders = `(${LOG_COLUMNS.map(() => '?').join(',')})`;
  const insertMany = db.prepare(
    `INSERT INTO logs (${LOG_COLUMNS.map(quoted).join(',')}) VALUES ${Array(rowsPerStatement).fill(placeholders).join(',')}`,
  );
  const insertOne = db.prepare(
    `INSERT INTO logs (${LOG_COLUMNS.map(quoted).join(',')}) VALUES ${placeholders}`,
  );
  const values = new Array<unknown>(rowsPerStatement * LOG_COLUMNS.length);
  const insertBatch = db.transaction((batch: LogBatch) => {
    const columns = LOG_COLUMNS.map((column) => batch[column] as unknown[]);
    let i = 0;
    for (; i + rowsPerStatement <= batch.length; i += rowsPerStatement) {
      let k = 0;
      for (let r = i; r < i + rowsPerStatement; r++) for (const column of columns) values[k++] = column[r];
      insertMany.run(values);
    }
    for (; i < batch.length; i++) insertOne.run(columns.map((column) => column[i]));
  });
  const insertBucket = db.prepare(
    'INSERT INTO quota_data (user_id, username, model_name, created_at, token_used, count, quota) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const insertBuckets = db.transaction((buckets: QuotaBucket[]) => {
    for (const b of buckets)
      insertBucket.run(b.userId, b.username, b.modelName, b.createdAt, b.tokenUsed, b.count, b.quota);
  });
  const insertRows = (table: string, rows: Row[]) => {
    if (rows.length === 0) return;
    const columns = Object.keys(rows[0]!);
    const statement = db.prepare(
      `INSERT OR REPLACE INTO ${table} (${columns.map(quoted).join(',')}) VALUES (${columns.map(() => '?').join(',')})`,
    );
    db.transaction(() => {
      for (const row of rows) statement.run(columns.map((column) => row[column]));
    })();
  };
  return {
    async insertLogs(batch) {
      insertBatch(batch);
    },
    async insertBuckets(buckets) {
      insertBuckets(buckets);
    },
    async insertConsoleRows(tables) {
      for (const [table, rows] of tables) insertRows(table, rows);
    },
    async finish() {
      // The dashboard's per-model sums follow quota_data, written here around the repository.
      db.exec(SUM_QUOTA_DATA_INTO_MODELS);
      for (const index of indexes) db.exec(index.sql);
      // No ANALYZE: the server never runs it, so SQLite plans without statistics there too.
      db.pragma('journal_mode = WAL');
      db.close();
    },
    async close() {
      if (db.open) db.close();
    },
  };
}

import type { Row } from './console-rows.ts';
import type { LogBatch, QuotaBucket } from './log-rows.ts';

/** Bulk writer of one database kind (fill-sqlite.ts, fill-postgres.ts). */
export interface LogFill {
  insertLogs(batch: LogBatch): Promise<void>;
  insertBuckets(buckets: QuotaBucket[]): Promise<void>;
  /** Inserts (or replaces, by id) rows of the main tables: users, tokens, channels. */
  insertConsoleRows(tables: Array<[string, Row[]]>): Promise<void>;
  /**
   * Re-creates the indexes dropped for the fill and closes; PostgreSQL also analyzes the tables
   * (its autovacuum would), SQLite does not (the server never does).
   */
  finish(): Promise<void>;
  close(): Promise<void>;
}

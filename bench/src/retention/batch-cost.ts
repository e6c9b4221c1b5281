/**
 * The time one clean-up batch holds SQLite, by batch size, measured in-process on the filled
 * file with the statements the server's LogBatchDeleter sends (read ids through the created_at
 * index, delete them by id). On SQLite a batch runs on the server's event loop, so this is what a
 * relay call that arrives during a batch waits at most on its account.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repositoryRoot } from '../targets.ts';

interface Statement {
  all(...values: unknown[]): Array<{ id: number }>;
  get(...values: unknown[]): unknown;
  run(...values: unknown[]): unknown;
}
interface SqliteDatabase {
  prepare(source: string): Statement;
  pragma(source: string): unknown;
  close(): void;
}
const Database = createRequire(join(repositoryRoot, 'apps/server/package.json'))('better-sqlite3') as new (
  file: string,
) => SqliteDatabase;

export interface BatchCost {
  batchSize: number;
  /** Milliseconds per batch. */
  median: number;
  p90: number;
  max: number;
  batches: number;
}

export function measureBatchCost(file: string, target: number, sizes: number[], batches = 15): BatchCost[] {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  // The server's setting (database.ts opens SQLite with synchronous = NORMAL in WAL mode).
  db.pragma('synchronous = NORMAL');
  const select = db.prepare('select "id" from "logs" where "created_at" < ? limit ?');
  const results: BatchCost[] = [];
  for (const size of sizes) {
    const remove = db.prepare(`delete from "logs" where "id" in (${new Array(size).fill('?').join(', ')})`);
    const times: number[] = [];
    for (let i = 0; i < batches; i++) {
      const started = performance.now();
      const ids = select.all(target, size).map((row) => row.id);
      if (ids.length < size) break;
      remove.run(...ids);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)] ?? 0;
    results.push({
      batchSize: size,
      median: at(0.5),
      p90: at(0.9),
      max: times.at(-1) ?? 0,
      batches: times.length,
    });
  }
  db.close();
  return results;
}

/**
 * The bench token's key in a database the bench filled earlier, its channel pointed at the mock
 * upstream of this run.
 */
export function readBenchKey(file: string, mockUrl: string): string {
  const db = new Database(file);
  db.prepare(`update "channels" set "base_url" = ?`).run(mockUrl);
  const row = db.prepare(`select "key" from "tokens" where "name" = 'bench'`).get() as
    | { key: string }
    | undefined;
  db.close();
  if (!row) throw new Error(`${file} has no bench token`);
  return row.key.startsWith('sk-') ? row.key : `sk-${row.key}`;
}

/**
 * Bulk-fills a Switchyard SQLite database's logs table with old consume rows, as the relay writes
 * them (the same columns, an `other` JSON of the usual size), one prepared statement in large
 * transactions: a few million rows in a minute or two. Uses the server's better-sqlite3, so the
 * file is written by the same SQLite build that reads it.
 */
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { repositoryRoot } from '../targets.ts';

interface SqliteStatement {
  run(...values: unknown[]): unknown;
}
interface SqliteDatabase {
  prepare(source: string): SqliteStatement & { get(...values: unknown[]): unknown };
  transaction(work: () => void): () => void;
  pragma(source: string): unknown;
  close(): void;
}

const requireServer = createRequire(join(repositoryRoot, 'apps/server/package.json'));
const Database = requireServer('better-sqlite3') as new (file: string) => SqliteDatabase;

const MODELS = ['gpt-4o-mini', 'gpt-4o', 'claude-sonnet-4-5', 'gemini-2.5-flash', 'deepseek-chat'];

/**
 * Adds `rows` consume rows with created_at spread evenly over [fromSeconds, toSeconds), in
 * created_at order (as the relay writes them). Returns the seconds it took.
 */
export function fillOldLogs(file: string, rows: number, fromSeconds: number, toSeconds: number): number {
  const started = performance.now();
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const insert = db.prepare(
    `INSERT INTO logs (user_id, created_at, type, content, username, token_name, model_name, quota,
       prompt_tokens, completion_tokens, use_time, is_stream, channel_id, token_id, "group", ip, other)
     VALUES (?, ?, 2, '', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'default', '', ?)`,
  );
  const span = toSeconds - fromSeconds;
  const chunk = 50_000;
  for (let done = 0; done < rows; done += chunk) {
    db.transaction(() => {
      for (let i = done; i < Math.min(rows, done + chunk); i++) {
        const user = 1 + (i % 1000);
        const model = MODELS[i % MODELS.length]!;
        const createdAt = fromSeconds + Math.floor((i / rows) * span);
        const stamp = new Date(createdAt * 1000).toISOString().replace(/\D/g, '').slice(0, 14);
        const other = `{"model_ratio":0.075,"group_ratio":1,"completion_ratio":4,"cache_tokens":0,"cache_ratio":0.5,"request_id":"${stamp}${String(i).padStart(10, '0')}","frt":-1000}`;
        insert.run(
          user,
          createdAt,
          `user${user}`,
          `token${i % 5000}`,
          model,
          100 + (i % 900),
          20 + (i % 400),
          10 + (i % 300),
          1 + (i % 5),
          i % 2,
          1 + (i % 50),
          1 + (i % 5000),
          other,
        );
      }
    })();
  }
  db.close();
  return (performance.now() - started) / 1000;
}

import { type Kysely, sql } from 'kysely';
import { dialectOf } from './column-types.ts';

/**
 * SQLite: `log_journal`, where a settlement in a busy group commit appends its consume log row
 * (ADR-35); the settlement writer moves the rows into `logs` in batches. The logs table's columns
 * without its id and with no index: an append touches one b-tree. Only SQLite settles in place, so
 * PostgreSQL and MySQL have no journal.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await sql
    .raw(`CREATE TABLE IF NOT EXISTS log_journal (
      user_id integer NOT NULL DEFAULT 0,
      created_at bigint NOT NULL DEFAULT 0,
      type integer NOT NULL DEFAULT 0,
      content text,
      username varchar(64) NOT NULL DEFAULT '',
      token_name varchar(255) NOT NULL DEFAULT '',
      model_name varchar(255) NOT NULL DEFAULT '',
      quota bigint NOT NULL DEFAULT 0,
      prompt_tokens integer NOT NULL DEFAULT 0,
      completion_tokens integer NOT NULL DEFAULT 0,
      use_time integer NOT NULL DEFAULT 0,
      is_stream integer NOT NULL DEFAULT 0,
      channel_id integer NOT NULL DEFAULT 0,
      token_id integer NOT NULL DEFAULT 0,
      "group" varchar(64) NOT NULL DEFAULT '',
      ip varchar(64) NOT NULL DEFAULT '',
      other text
    )`)
    .execute(db);
}

export async function down(): Promise<void> {
  throw new Error('Switchyard migrations are forward-only');
}

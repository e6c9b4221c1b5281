import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect } from 'kysely';
import { createPool as createMysqlPool } from 'mysql2';
import pg from 'pg';
import type { DatabaseKind, DatabaseTarget } from '../config/env.ts';
import { MysqlDatabaseLockDialect } from './mysql-database-lock-dialect.ts';
import type { Database } from './schema.ts';
import { type DeletedAtStyles, secondsEverywhere } from './soft-delete.ts';
import { ImmediateSqliteDialect } from './sqlite-immediate-dialect.ts';
import { startWalCheckpointer, type WalCheckpointer } from './wal-checkpointer.ts';

/** An open database: the Kysely instance plus what callers need to know about its dialect. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DatabaseKind;
  /**
   * The raw better-sqlite3 connection Kysely also uses (SQLite only), for synchronous prepared
   * statements on the hot path. Use it only while `sqlite.inTransaction` is false: a Kysely
   * transaction on this connection may be open across awaits, and a write made then would commit
   * or roll back with it.
   */
  sqlite?: SQLite.Database;
  /** The WAL checkpoint worker (SQLite files opened with `checkpointIntervalMs`). */
  checkpointer?: WalCheckpointer;
  /** How each soft-delete table stores `deleted_at`; set at start from the tables (adopt/). */
  deletedAt: DeletedAtStyles;
  destroy(): Promise<void>;
}

/** The SQLite file when neither SQLITE_PATH nor a location is given. */
export const DEFAULT_SQLITE_FILE = './data/switchyard.db';

const PG_INT8 = 20;
const PG_NUMERIC = 1700;

/**
 * Kysely's SQLite driver prepares every query anew; preparing costs more than running the
 * statement on the hot path. Statements are reusable, so keep the recent ones (bounded).
 */
function withStatementCache(sqlite: SQLite.Database, limit = 500) {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(source: string) {
      let statement = cache.get(source);
      if (statement === undefined) {
        statement = sqlite.prepare(source);
        if (cache.size >= limit) cache.delete(cache.keys().next().value as string);
        cache.set(source, statement);
      }
      return statement;
    },
  };
}

export interface OpenDatabaseOptions {
  /**
   * SQLite file databases: checkpoint the WAL from a worker thread this often (ms) instead of
   * inside the commits of the event loop (wal-checkpointer.ts); 0 leaves it to SQLite.
   */
  checkpointIntervalMs?: number;
  /** Told when the checkpoint worker fails (the main connection then checkpoints itself). */
  onCheckpointFailure?: (error: Error) => void;
}

/** Opens a connection pool for the target. SQLite runs in WAL mode with a busy timeout. */
export function openDatabase(target: DatabaseTarget, options: OpenDatabaseOptions = {}): DatabaseHandle {
  let db: Kysely<Database>;
  let raw: SQLite.Database | undefined;
  let checkpointer: WalCheckpointer | undefined;
  if (target.kind === 'sqlite') {
    const file = target.location || DEFAULT_SQLITE_FILE;
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = OFF');
    raw = sqlite;
    const interval = options.checkpointIntervalMs ?? 0;
    if (interval > 0 && file !== ':memory:') {
      checkpointer = startWalCheckpointer(sqlite, interval, options.onCheckpointFailure ?? (() => undefined));
    }
    db = new Kysely<Database>({
      dialect: new ImmediateSqliteDialect({ database: withStatementCache(sqlite) }),
    });
  } else if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.location,
      max: 20,
      idleTimeoutMillis: 60_000,
      types: {
        getTypeParser: (oid: number, format?: 'text' | 'binary') => {
          if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => Number(value);
          // biome-ignore lint/suspicious/noExplicitAny: pg's overloads are not expressible here.
          return (pg.types.getTypeParser as any)(oid, format);
        },
      },
    });
    // An idle connection killed by the server (restart, admin command) must not crash the process.
    pool.on('error', () => undefined);
    db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  } else {
    const pool = createMysqlPool({
      uri: target.location,
      connectionLimit: 20,
      supportBigNumbers: true,
      bigNumberStrings: false,
      decimalNumbers: true,
      charset: 'utf8mb4',
      timezone: 'Z',
    });
    db = new Kysely<Database>({ dialect: new MysqlDatabaseLockDialect({ pool }) });
  }
  return {
    db,
    kind: target.kind,
    sqlite: raw,
    checkpointer,
    deletedAt: { ...secondsEverywhere },
    destroy: async () => {
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

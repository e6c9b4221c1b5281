import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config/env.ts';
import { adoptDatabase, detectDeletedAtStyles } from '../db/adopt/adopt-database.ts';
import { checkSqliteBeforeOpen } from '../db/adopt/sqlite-before-open.ts';
import { type DatabaseHandle, DEFAULT_SQLITE_FILE, openDatabase } from '../db/database.ts';
import { migrateDatabases } from '../db/migrate.ts';
import type { AppLifecycle } from './subsystems.ts';

/**
 * Opens the main database and the logs database (LOG_SQL_DSN; the main one otherwise) and
 * registers `databases`, the base subsystem: it closes after every other one. On the master the
 * databases are adopted (a new-api or one-api schema) and migrated before anything reads them.
 */
export async function openDatabases(
  config: Config,
  lifecycle: AppLifecycle,
  log: FastifyBaseLogger,
): Promise<{ database: DatabaseHandle; logDatabase: DatabaseHandle }> {
  if (config.nodeType === 'master' && config.database.kind === 'sqlite') {
    await checkSqliteBeforeOpen(config.database.location || DEFAULT_SQLITE_FILE, log);
  }
  const database = openDatabase(config.database, {
    checkpointIntervalMs: config.sqliteCheckpointMs,
    onCheckpointFailure: (error) =>
      log.warn({ err: error }, 'WAL checkpoint worker failed; SQLite checkpoints in its commits again'),
  });
  const logDatabase = config.logDatabase ? openDatabase(config.logDatabase) : database;
  lifecycle.register('databases', {
    base: true,
    close: async () => {
      await database.destroy();
      if (logDatabase !== database) await logDatabase.destroy();
    },
  });
  if (config.nodeType === 'master') {
    await adoptDatabase(database, config.logDatabase ? logDatabase : null, log);
    await migrateDatabases(database.db as never, config.logDatabase ? (logDatabase.db as never) : null);
  }
  await detectDeletedAtStyles(database);
  return { database, logDatabase };
}

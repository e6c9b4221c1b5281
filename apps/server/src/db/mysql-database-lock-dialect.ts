import { type DialectAdapter, type Kysely, MysqlAdapter, MysqlDialect, sql } from 'kysely';

/** Longer than any migration run; GET_LOCK waits this long for another node's run. */
const LOCK_TIMEOUT_SECONDS = 60 * 60;
/**
 * The lock's name: the database's own (hashed: MySQL allows 64 characters). MySQL's named locks
 * belong to the whole server, not to a database.
 */
const lockName = sql`concat('switchyard_migrations:', sha1(database()))`;

/** Kysely's MySQL adapter, with the migration lock named after the database. */
export class DatabaseLockMysqlAdapter extends MysqlAdapter {
  // biome-ignore lint/suspicious/noExplicitAny: the signature of Kysely's DialectAdapter.
  override async acquireMigrationLock(db: Kysely<any>): Promise<void> {
    await sql`select get_lock(${lockName}, ${sql.lit(LOCK_TIMEOUT_SECONDS)})`.execute(db);
  }

  // biome-ignore lint/suspicious/noExplicitAny: the signature of Kysely's DialectAdapter.
  override async releaseMigrationLock(db: Kysely<any>): Promise<void> {
    await sql`select release_lock(${lockName})`.execute(db);
  }
}

/**
 * Kysely's MySQL dialect whose migrations lock only their own database. Kysely names one lock for
 * every migration on the server, so nodes migrating different databases on one MySQL server
 * waited for each other: each test database's migrations queued behind every other's. Nodes
 * sharing a database still migrate one at a time (the lock runs on the migration's connection,
 * so MySQL releases it if the process dies). PostgreSQL's advisory locks are per database already.
 */
export class MysqlDatabaseLockDialect extends MysqlDialect {
  override createAdapter(): DialectAdapter {
    return new DatabaseLockMysqlAdapter();
  }
}

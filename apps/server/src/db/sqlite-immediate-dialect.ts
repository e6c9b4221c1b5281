import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';

/** Kysely's SQLite driver, with transactions begun IMMEDIATE. */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/**
 * Kysely's SQLite dialect whose transactions take the write lock when they begin. Kysely begins
 * them DEFERRED: a transaction that reads and then writes (a balance read and replaced, a row
 * checked and updated) holds a read snapshot first, and if another process sharing the file
 * commits in between, its first write fails at once with SQLITE_BUSY; the busy timeout does not
 * apply to that upgrade. Begun IMMEDIATE, it waits (up to the busy timeout) for the other writer
 * before it reads. The ledger's group commit already runs its transactions IMMEDIATE.
 */
export class ImmediateSqliteDialect extends SqliteDialect {
  private readonly settings: SqliteDialectConfig;

  constructor(config: SqliteDialectConfig) {
    super(config);
    this.settings = { ...config };
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings);
  }
}

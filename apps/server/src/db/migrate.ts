import { type Kysely, type Migration, Migrator } from 'kysely';
import * as coreTables from './migrations/001-core-tables.ts';
import * as reservationLedger from './migrations/002-reservation-ledger.ts';
import * as ledgerSettlement from './migrations/003-ledger-settlement.ts';
import * as sharedRateLimits from './migrations/004-shared-rate-limits.ts';
import * as ledgerRoutines from './migrations/005-ledger-routines.ts';
import * as mysqlBatchCounters from './migrations/006-mysql-batch-counters.ts';
import * as mysqlLedgerGroup from './migrations/007-mysql-ledger-group.ts';
import * as sqliteReservationsClustered from './migrations/008-sqlite-reservations-clustered.ts';
import * as sqliteLogJournal from './migrations/009-sqlite-log-journal.ts';
import * as sessionRevocations from './migrations/010-session-revocations.ts';
import * as quotaDataModels from './migrations/011-quota-data-models.ts';
import * as logTables from './migrations/101-log-tables.ts';
import * as dropLogModelIndex from './migrations/102-drop-log-model-index.ts';
import * as logRetentionCursors from './migrations/103-log-retention-cursors.ts';
import * as logListIndexes from './migrations/104-log-list-indexes.ts';
import * as logRollups from './migrations/105-log-rollups.ts';
import * as logRollupUserTokenGrains from './migrations/106-log-rollup-user-token-grains.ts';

const coreMigrations: Record<string, Migration> = {
  '001-core-tables': coreTables,
  '002-reservation-ledger': reservationLedger,
  '003-ledger-settlement': ledgerSettlement,
  '004-shared-rate-limits': sharedRateLimits,
  '005-ledger-routines': ledgerRoutines,
  '006-mysql-batch-counters': mysqlBatchCounters,
  '007-mysql-ledger-group': mysqlLedgerGroup,
  '008-sqlite-reservations-clustered': sqliteReservationsClustered,
  '009-sqlite-log-journal': sqliteLogJournal,
  '010-session-revocations': sessionRevocations,
  '011-quota-data-models': quotaDataModels,
};
const logMigrations: Record<string, Migration> = {
  '101-log-tables': logTables,
  '102-drop-log-model-index': dropLogModelIndex,
  '103-log-retention-cursors': logRetentionCursors,
  '104-log-list-indexes': logListIndexes,
  '105-log-rollups': logRollups,
  '106-log-rollup-user-token-grains': logRollupUserTokenGrains,
};

/** Every migration this build knows, main and log; a database that records another is newer. */
export const knownMigrationNames: ReadonlySet<string> = new Set([
  ...Object.keys(coreMigrations),
  ...Object.keys(logMigrations),
]);

async function run(db: Kysely<unknown>, migrations: Record<string, Migration>, table: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: table,
    migrationLockTableName: `${table}_lock`,
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/**
 * Brings the schema up to date. Idempotent and safe when several nodes start at once (Kysely
 * takes a lock per dialect). When a separate log database is given, logs go there.
 */
export async function migrateDatabases(main: Kysely<unknown>, logs: Kysely<unknown> | null): Promise<void> {
  await run(main, coreMigrations, 'switchyard_migrations');
  await run(logs ?? main, logMigrations, 'switchyard_log_migrations');
}

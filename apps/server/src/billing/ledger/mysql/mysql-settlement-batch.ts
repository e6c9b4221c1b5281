import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import { aggregateCounters, type PendingSettlement } from '../../settlement/settlement-entry.ts';
import { type ClaimSettled, writeBatchOnConnection } from '../routines/settlement-batch.ts';
import { deleteReservationsQuery, lockSettledQuery } from './mysql-statements.ts';

/** The batch's counters as the JSON arguments of `switchyard_batch_counters` (mysql-routines.ts). */
export function counterArguments(items: readonly PendingSettlement[]): [string, string, string] {
  const counters = aggregateCounters(items);
  return [
    JSON.stringify(counters.users.map((user) => [user.id, user.quota, user.requests])),
    JSON.stringify(counters.tokens.map((token) => [token.id, token.quota, token.accessedAt])),
    JSON.stringify(counters.channels.map((channel) => [channel.id, channel.quota])),
  ];
}

/**
 * The batch runs at READ COMMITTED (this transaction only): under InnoDB's default REPEATABLE READ
 * its claim of the settled ledger rows also locked the gaps around them (next-key locks, up to the
 * table's end), and a reservation inserting a ledger row there waited; a group of one user's calls
 * (`switchyard_ledger_group`) then waited on that gap while holding the user's row, which the batch's counters
 * need next: a deadlock (every few seconds at 500 req/s in the MariaDB benchmark). The batch
 * reads and deletes rows by primary key, so it needs no gap locks.
 */
const MYSQL_BATCH_BEGIN = ['SET TRANSACTION ISOLATION LEVEL READ COMMITTED', 'START TRANSACTION'];

/** Locks the batch's settled rows (by primary key), then deletes those it found. */
const claimOnMysql: ClaimSettled = async (trx, ids) => {
  const { rows } = await trx.executeQuery<{ id: string }>(lockSettledQuery(ids));
  const claimed = rows.map((row) => row.id);
  if (claimed.length > 0) await trx.executeQuery(deleteReservationsQuery(claimed));
  return new Set(claimed);
};

/**
 * The settlement writer's batch on MySQL/MariaDB: deletes the batch's settled ledger rows (only
 * the ones this transaction deleted are written), inserts their consume log rows (when
 * `withLogs`), then one CALL adds the counters and commits. The user, token and channel rows are
 * locked only inside that CALL, not across round trips through a busy event loop (the cause of
 * a 194–385 ms p99 at 1,000 req/s on PostgreSQL). Any error rolls the whole batch back.
 */
export function writeSettlementBatchOnMysql(
  db: Kysely<Database>,
  batch: readonly PendingSettlement[],
  withLogs: boolean,
): Promise<number> {
  return writeBatchOnConnection(
    db,
    'mysql',
    MYSQL_BATCH_BEGIN,
    claimOnMysql,
    batch,
    withLogs,
    (connection, mine) => {
      const [users, tokens, channels] = counterArguments(mine);
      return sql`CALL switchyard_batch_counters(${users}, ${tokens}, ${channels})`.execute(connection);
    },
  );
}

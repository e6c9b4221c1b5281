import { CompiledQuery, sql } from 'kysely';
import { aggregateCounters, type PendingSettlement } from '../../settlement/settlement-entry.ts';
import { kept, placeholders, type RoutineInvocation } from '../routines/compiled-statements.ts';
import { readGroupResult } from '../routines/routine-result.ts';
import type { ServerDialect } from '../routines/server-ledger.ts';

/**
 * The ledger on MySQL/MariaDB (../routines/server-ledger.ts with this dialect): the procedures for
 * reserve, settle and refund, one user's calls of a turn in one `CALL switchyard_ledger_group`
 * (ADR-25), and settled rows written by the batch that ends in `CALL switchyard_batch_counters`;
 * the procedures' SQL text is mysql-routines.ts. Statements are ready SQL text (see
 * routines/compiled-statements.ts).
 */

/**
 * Calls per MySQL group statement: the procedure reads its calls out of one JSON document, and a
 * backlog's groups (hundreds of one user's calls after a stall) would make that the slowest step.
 */
export const MYSQL_GROUP_LIMIT = 16;

/**
 * MySQL: locks those of `ids` that are settled ledger rows and returns their ids. By primary key
 * only: the ledger table is small (rows live for one call), and for a long id list the optimizer
 * chose to scan it, locking the rows other calls were settling while the batch went on to wait
 * for their user's row (a deadlock).
 */
export function lockSettledQuery(ids: readonly string[]): CompiledQuery {
  const text = kept(`lock:mysql:${ids.length}`, ids.length, () => {
    return `SELECT id FROM reservations FORCE INDEX (PRIMARY) WHERE state = 'settled' AND id IN (${placeholders('mysql', 1, ids.length)}) FOR UPDATE`;
  });
  return CompiledQuery.raw(text, [...ids]);
}

/** MySQL: deletes the ledger rows `ids` (locked by `lockSettledQuery` in this transaction). */
export function deleteReservationsQuery(ids: readonly string[]): CompiledQuery {
  const text = kept(`delete:mysql:${ids.length}`, ids.length, () => {
    return `DELETE FROM reservations WHERE id IN (${placeholders('mysql', 1, ids.length)})`;
  });
  return CompiledQuery.raw(text, [...ids]);
}

/** MySQL: `CALL name(?, …)`, one procedure per statement. */
export function callProcedureQuery(call: RoutineInvocation): CompiledQuery {
  const text = kept(`call:${call.name}:${call.args.length}`, call.args.length, () => {
    return `CALL ${call.name}(${placeholders('mysql', 1, call.args.length)})`;
  });
  return CompiledQuery.raw(text, call.args as unknown[]);
}

/** The routine's name without its prefix: `switchyard_settle` → `settle`. */
const callKind = (name: string) => (name.startsWith('switchyard_') ? name.slice('switchyard_'.length) : name);

/**
 * MySQL: one user's calls of one turn as one `CALL switchyard_ledger_group(?)` (mysql-routines.ts),
 * the calls a JSON array of `[kind, …args]` in order.
 */
export function ledgerGroupQuery(calls: readonly RoutineInvocation[]): CompiledQuery {
  const list = calls.map((call) => [callKind(call.name), ...call.args]);
  return CompiledQuery.raw('CALL switchyard_ledger_group(?)', [JSON.stringify(list)]);
}

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
 * The settlement batch on MySQL/MariaDB locks the batch's settled rows (by primary key) and
 * deletes those it found, inserts their consume log rows, then one CALL adds the counters and
 * commits: the user, token and channel rows are locked only inside that CALL, not across round
 * trips through a busy event loop (the cause of a 194–385 ms p99 at 1,000 req/s on PostgreSQL).
 * The batch runs at READ COMMITTED (this transaction only): under InnoDB's default REPEATABLE READ
 * its claim of the settled ledger rows also locked the gaps around them (next-key locks, up to the
 * table's end), and a reservation inserting a ledger row there waited; a group of one user's calls
 * (`switchyard_ledger_group`) then waited on that gap while holding the user's row, which the
 * batch's counters need next: a deadlock (every few seconds at 500 req/s in the MariaDB
 * benchmark). The batch reads and deletes rows by primary key, so it needs no gap locks.
 */
export const mysqlDialect: ServerDialect = {
  kind: 'mysql',
  groupLimit: MYSQL_GROUP_LIMIT,
  callQuery: callProcedureQuery,
  groupQuery: ledgerGroupQuery,
  readGroup: readGroupResult,
  batchBegin: ['SET TRANSACTION ISOLATION LEVEL READ COMMITTED', 'START TRANSACTION'],
  async claimSettled(trx, ids) {
    const { rows } = await trx.executeQuery<{ id: string }>(lockSettledQuery(ids));
    const claimed = rows.map((row) => row.id);
    if (claimed.length > 0) await trx.executeQuery(deleteReservationsQuery(claimed));
    return new Set(claimed);
  },
  finishBatch(connection, mine) {
    const [users, tokens, channels] = counterArguments(mine);
    return sql`CALL switchyard_batch_counters(${users}, ${tokens}, ${channels})`.execute(connection);
  },
};

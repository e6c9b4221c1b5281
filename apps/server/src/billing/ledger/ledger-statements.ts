import { type Kysely, sql } from 'kysely';
import type { DatabaseKind } from '../../config/env.ts';
import type { Database } from '../../db/schema.ts';
import { aggregateCounters, completeLogRow, type PendingSettlement } from '../settlement/settlement-entry.ts';
import type { Executor } from './balance-moves.ts';
import {
  deleteReservationsQuery,
  deleteSettledReturningQuery,
  lockSettledQuery,
  logInsertQuery,
} from './routines/compiled-statements.ts';

/** Adds a batch's used quota, request counts and token access times (one UPDATE per id). */
export async function applyCounters(trx: Executor, items: readonly PendingSettlement[]): Promise<void> {
  const counters = aggregateCounters(items);
  for (const user of counters.users) {
    await trx
      .updateTable('users')
      .set({
        used_quota: sql`used_quota + ${user.quota}`,
        request_count: sql`request_count + ${user.requests}`,
      })
      .where('id', '=', user.id)
      .execute();
  }
  for (const token of counters.tokens) {
    await trx
      .updateTable('tokens')
      .set({ used_quota: sql`used_quota + ${token.quota}`, accessed_time: token.accessedAt })
      .where('id', '=', token.id)
      .execute();
  }
  for (const channel of counters.channels) {
    await trx
      .updateTable('channels')
      .set({ used_quota: sql`used_quota + ${channel.quota}` })
      .where('id', '=', channel.id)
      .execute();
  }
}

/**
 * Inserts the consume log rows of a batch (none when logging was off for all of them), as one
 * statement. On PostgreSQL and MySQL its text is built once per row count (compiled-statements.ts).
 */
export async function insertConsumeLogs(
  executor: Executor,
  items: readonly PendingSettlement[],
  kind: DatabaseKind,
): Promise<void> {
  if (kind === 'sqlite') {
    const rows = items.flatMap((item) => (item.log ? [completeLogRow(item.log, item.at)] : []));
    if (rows.length > 0) await executor.insertInto('logs').values(rows).execute();
    return;
  }
  const rows: { log: NonNullable<PendingSettlement['log']>; at: number }[] = [];
  for (const item of items) if (item.log) rows.push({ log: item.log, at: item.at });
  if (rows.length > 0) await executor.executeQuery(logInsertQuery(kind, rows));
}

/**
 * The first part of a settlement batch: deletes the batch's settled ledger rows (`claimSettledRows`)
 * and, when `withLogs`, inserts the consume log rows of those it deleted. Returns those items:
 * only they get counters (a row reconciled meanwhile was written by the reconciler).
 */
export async function claimAndLogBatch(
  executor: Executor,
  kind: DatabaseKind,
  batch: readonly PendingSettlement[],
  withLogs: boolean,
): Promise<PendingSettlement[]> {
  const claimed = await claimSettledRows(
    executor,
    kind,
    batch.map((item) => item.id),
  );
  const mine = batch.filter((item) => claimed.has(item.id));
  if (withLogs) await insertConsumeLogs(executor, mine, kind);
  return mine;
}

/**
 * A settlement batch on one pooled connection of PostgreSQL or MySQL: `begin` opens the
 * transaction, `claimAndLogBatch` runs, then `finish` sends the counters and the commit in one
 * round trip (a message of statements, or a CALL), so the counted rows are locked only inside the
 * server. Any error rolls the whole batch back and is raised again.
 */
export async function writeBatchOnConnection(
  db: Kysely<Database>,
  kind: 'postgres' | 'mysql',
  begin: readonly string[],
  batch: readonly PendingSettlement[],
  withLogs: boolean,
  finish: (connection: Kysely<Database>, mine: PendingSettlement[]) => Promise<unknown>,
): Promise<void> {
  await db.connection().execute(async (connection) => {
    for (const statement of begin) await sql.raw(statement).execute(connection);
    try {
      await finish(connection, await claimAndLogBatch(connection, kind, batch, withLogs));
    } catch (error) {
      await sql`ROLLBACK`.execute(connection).catch(() => undefined);
      throw error;
    }
  });
}

/**
 * Deletes the batch's settled ledger rows and returns the ids this transaction deleted: only
 * those are written (a row reconciled meanwhile by the master was written by it). One statement
 * with RETURNING on SQLite and PostgreSQL; MySQL locks the rows first and deletes what it found.
 */
export async function claimSettledRows(
  trx: Executor,
  kind: DatabaseKind,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  if (kind === 'mysql') {
    const { rows } = await trx.executeQuery<{ id: string }>(lockSettledQuery(ids));
    const claimed = rows.map((row) => row.id);
    if (claimed.length > 0) await trx.executeQuery(deleteReservationsQuery(claimed));
    return new Set(claimed);
  }
  if (kind === 'postgres') {
    const { rows } = await trx.executeQuery<{ id: string }>(deleteSettledReturningQuery(ids));
    return new Set(rows.map((row) => row.id));
  }
  const deleted = await trx
    .deleteFrom('reservations')
    .where('id', 'in', ids)
    .where('state', '=', 'settled')
    .returning('id')
    .execute();
  return new Set(deleted.map((row) => row.id));
}

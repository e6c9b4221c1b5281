import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { PendingSettlement } from '../../settlement/settlement-entry.ts';
import type { Executor } from '../balance-moves.ts';
import { insertConsumeLogs } from '../consume-logs.ts';
import {
  deleteReservationsQuery,
  deleteSettledReturningQuery,
  lockSettledQuery,
  type ServerKind,
} from './compiled-statements.ts';

/**
 * Deletes the batch's settled ledger rows and returns the ids this transaction deleted: only
 * those are written (a row reconciled meanwhile by another node was written by it). One statement
 * with RETURNING on PostgreSQL; MySQL locks the rows first and deletes what it found.
 */
export async function claimSettledRows(
  trx: Executor,
  kind: ServerKind,
  ids: readonly string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  if (kind === 'mysql') {
    const { rows } = await trx.executeQuery<{ id: string }>(lockSettledQuery(ids));
    const claimed = rows.map((row) => row.id);
    if (claimed.length > 0) await trx.executeQuery(deleteReservationsQuery(claimed));
    return new Set(claimed);
  }
  const { rows } = await trx.executeQuery<{ id: string }>(deleteSettledReturningQuery(ids));
  return new Set(rows.map((row) => row.id));
}

/**
 * A settlement batch on one pooled connection of PostgreSQL or MySQL: `begin` opens the
 * transaction, the batch's settled rows are claimed (`claimSettledRows`) and, when `withLogs`,
 * the consume log rows of those claimed inserted; then `finish` sends the counters and the commit
 * in one round trip (a message of statements, or a CALL), so the counted rows are locked only
 * inside the server. Any error rolls the whole batch back and is raised again. Answers how many
 * rows it wrote.
 */
export async function writeBatchOnConnection(
  db: Kysely<Database>,
  kind: ServerKind,
  begin: readonly string[],
  batch: readonly PendingSettlement[],
  withLogs: boolean,
  finish: (connection: Kysely<Database>, mine: PendingSettlement[]) => Promise<unknown>,
): Promise<number> {
  return db.connection().execute(async (connection) => {
    for (const statement of begin) await sql.raw(statement).execute(connection);
    try {
      const claimed = await claimSettledRows(
        connection,
        kind,
        batch.map((item) => item.id),
      );
      const mine = batch.filter((item) => claimed.has(item.id));
      if (withLogs) await insertConsumeLogs(connection, mine, kind);
      await finish(connection, mine);
      return mine.length;
    } catch (error) {
      await sql`ROLLBACK`.execute(connection).catch(() => undefined);
      throw error;
    }
  });
}

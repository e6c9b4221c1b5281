import { type Kysely, sql } from 'kysely';
import type { Database } from '../../../db/schema.ts';
import type { PendingSettlement } from '../../settlement/settlement-entry.ts';
import type { Executor } from '../balance-moves.ts';
import { insertConsumeLogs } from '../consume-logs.ts';
import type { ServerKind } from './compiled-statements.ts';

/**
 * Deletes those of `ids` that are settled ledger rows, in the batch's transaction, and returns the
 * ids it deleted: only those are written (a row reconciled meanwhile by another node was written
 * by it).
 */
export type ClaimSettled = (trx: Executor, ids: readonly string[]) => Promise<Set<string>>;

/**
 * A settlement batch on one pooled connection of PostgreSQL or MySQL: `begin` opens the
 * transaction, the batch's settled rows are claimed (`claim`, the dialect's) and, when `withLogs`,
 * the consume log rows of those claimed inserted; then `finish` sends the counters and the commit
 * in one round trip (a message of statements, or a CALL), so the counted rows are locked only
 * inside the server. Any error rolls the whole batch back and is raised again. Answers how many
 * rows it wrote.
 */
export async function writeBatchOnConnection(
  db: Kysely<Database>,
  kind: ServerKind,
  begin: readonly string[],
  claim: ClaimSettled,
  batch: readonly PendingSettlement[],
  withLogs: boolean,
  finish: (connection: Kysely<Database>, mine: PendingSettlement[]) => Promise<unknown>,
): Promise<number> {
  return db.connection().execute(async (connection) => {
    for (const statement of begin) await sql.raw(statement).execute(connection);
    try {
      const ids = batch.map((item) => item.id);
      const claimed = ids.length === 0 ? new Set<string>() : await claim(connection, ids);
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

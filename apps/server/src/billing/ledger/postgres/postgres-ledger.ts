import type { DatabaseHandle } from '../../../db/database.ts';
import type { PendingSettlement } from '../../settlement/settlement-entry.ts';
import { ServerLedger } from '../routines/server-ledger.ts';
import { writeSettlementBatchOnPostgres } from './postgres-settlement-batch.ts';

/**
 * The ledger on PostgreSQL: the functions for reserve, settle and refund (their SQL text is
 * postgres-routines.ts), one user's calls of a turn in one `SELECT` (ADR-22; routines/), and
 * settled rows written by the batch whose counters and COMMIT go as one message
 * (postgres-settlement-batch.ts).
 */
export class PostgresLedger extends ServerLedger {
  constructor(handle: DatabaseHandle) {
    super(handle, 'postgres');
  }

  writeSettled(batch: readonly PendingSettlement[], withLogs: boolean): Promise<number> {
    return writeSettlementBatchOnPostgres(this.handle.db, batch, withLogs);
  }
}

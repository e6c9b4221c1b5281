import type { DatabaseHandle } from '../../../db/database.ts';
import type { PendingSettlement } from '../../settlement/settlement-entry.ts';
import { ServerLedger } from '../routines/server-ledger.ts';
import { writeSettlementBatchOnMysql } from './mysql-settlement-batch.ts';

/**
 * The ledger on MySQL/MariaDB: the procedures for reserve, settle and refund, one user's calls of
 * a turn in one `CALL switchyard_ledger_group` (ADR-25; routines/), and settled rows written by
 * the batch that ends in `CALL switchyard_batch_counters` (mysql-settlement-batch.ts); the
 * procedures' SQL text is mysql-routines.ts.
 */
export class MysqlLedger extends ServerLedger {
  constructor(handle: DatabaseHandle) {
    super(handle, 'mysql');
  }

  writeSettled(batch: readonly PendingSettlement[], withLogs: boolean): Promise<number> {
    return writeSettlementBatchOnMysql(this.handle.db, batch, withLogs);
  }
}

import type { Transaction } from 'kysely';
import type { DatabaseHandle } from '../../db/database.ts';
import type { Database } from '../../db/schema.ts';
import type { PendingSettlement } from '../settlement/settlement-entry.ts';
import type { Payer } from './balance-moves.ts';
import type { SettleAttempt } from './settle-attempt.ts';

/** A conditional update inside the refund's transaction: true when this caller changed the row. */
export type RefundClaim = (trx: Transaction<Database>) => Promise<boolean>;

/** A reservation's ledger row as reserve writes it. */
export interface ReserveRow {
  id: string;
  requestId: string;
  payer: Payer;
  amount: number;
  /** The reserving process's node_instances id. */
  instanceId: string;
}

/**
 * The quota ledger of one database dialect: how reserve, settle and refund reach the database, and
 * how settled calls' consume rows and counters are written. One implementation per dialect
 * (`sqlite/`, `postgres/`, `mysql/`); `BillingService` keeps the reservations, their retries and
 * the bookkeeping around them, and the settlement writer and reconciliation write through it.
 */
export interface Ledger {
  /**
   * Holds the amount on user and token (`quota >= amount`, no overdraft under any concurrency)
   * with its 'reserved' row; answers whose balance was short instead, having changed nothing.
   */
  reserve(row: ReserveRow): Promise<'user' | 'token' | null>;
  /**
   * One settlement attempt: moves the balance to the cost (in full, even below zero) and takes
   * the row out of 'reserved'. Answers what is left for the settlement writer (`written` set when
   * nothing is), or null when a retry (`onlyIfReserved`) found nothing to settle or to hand on.
   */
  settle(attempt: SettleAttempt): Promise<PendingSettlement | null>;
  /** Deletes a 'reserved' row and credits it back; false (nothing changed) when it is gone (reconciled). */
  refund(id: string, payer: Payer, amount: number): Promise<boolean>;
  /**
   * Reverses a settled charge once (a failed task): in one transaction `claim` runs first, and
   * only when it changed its row is `amount` credited to the user and, when the token row is
   * limited, to the token, and taken off both used quotas. Answers what `claim` answered.
   */
  refundClaimed(userId: number, tokenId: number, amount: number, claim: RefundClaim): Promise<boolean>;
  /**
   * Deletes those of the batch's 'settled' rows that are still there and, for those only, writes
   * their consume log rows (when `withLogs`: logs share the main database) and adds their
   * used-quota, request and access counters, in one transaction. Answers how many it wrote.
   */
  writeSettled(batch: readonly PendingSettlement[], withLogs: boolean): Promise<number>;
  /**
   * Writes what the ledger keeps outside settled rows into `logs` of `logDatabase` (SQLite: the
   * log journal); nothing on PostgreSQL and MySQL.
   */
  flush(logDatabase: DatabaseHandle): Promise<void>;
}

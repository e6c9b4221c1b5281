import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/database.ts';
import type { SettlementSink } from '../ledger/billing-service.ts';
import { insertConsumeLogs } from '../ledger/consume-logs.ts';
import type { Ledger } from '../ledger/ledger.ts';
import { ledgerOf } from '../ledger/ledger-of.ts';
import type { PendingSettlement } from './settlement-entry.ts';

export interface SettlementWriterOptions {
  database: DatabaseHandle;
  /** The logs database; the main one unless LOG_SQL_DSN is set. */
  logDatabase: DatabaseHandle;
  log: FastifyBaseLogger;
  /** Write a batch when this many settled calls wait. */
  batchSize: number;
  /** ... or this often (milliseconds). */
  intervalMs: number;
}

/** A background write that keeps failing is logged once, and once more when it works again. */
class FailureNotice {
  private failing = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly failedMessage: string,
    private readonly recoveredMessage: string,
  ) {}

  succeeded(): void {
    if (this.failing) this.log.info(this.recoveredMessage);
    this.failing = false;
  }

  failed(error: unknown, context: Record<string, unknown> = {}): void {
    if (!this.failing) this.log.error({ err: error, ...context }, this.failedMessage);
    this.failing = true;
  }
}

/**
 * Writes what settlements leave for later, off the response path. On PostgreSQL and MySQL: the
 * settled calls, in batches every `intervalMs` or `batchSize` calls: one main-database transaction
 * deletes the batch's settled ledger rows, inserts their consume log rows (when logs share the
 * main database) and adds the used-quota, request and access counters, one UPDATE per distinct
 * user, token and channel; with a separate log database the log rows go there first. Until a
 * batch commits its ledger rows stay 'settled', so after a kill -9 reconciliation writes what is
 * missing. Only rows this transaction deleted are written: a row the master reconciled meanwhile
 * is not written twice. A failed batch stays queued and is retried; nothing is dropped while the
 * process lives. The batch is the dialect's ledger's (`Ledger.writeSettled`: on PostgreSQL the
 * counters and COMMIT go as one message, on MySQL as one CALL, so the counted rows are locked only
 * inside the server). On SQLite a settlement writes everything in its own commit (ADR-24) and
 * nothing is queued: each flush (the timer's too) has the ledger move its log journal, where those
 * settlements put their consume log rows, into logs, whichever database holds them (ADR-35).
 */
export class SettlementWriter implements SettlementSink {
  private queue: PendingSettlement[] = [];
  /** The flush running or last run (flushes run one after another). */
  private flushing: Promise<void> = Promise.resolve();
  private scheduled = false;
  private readonly batches: FailureNotice;
  private readonly timer: NodeJS.Timeout;
  private readonly sharedLogs: boolean;
  private readonly ledger: Ledger;
  private readonly moves: FailureNotice;

  constructor(private readonly options: SettlementWriterOptions) {
    this.sharedLogs = options.logDatabase === options.database;
    this.batches = new FailureNotice(
      options.log,
      'settlement batch failed; it stays queued and is retried',
      'settlement batches are written again',
    );
    this.moves = new FailureNotice(
      options.log,
      'moving the log journal failed; its rows stay and are retried',
      'the log journal is moved into logs again',
    );
    this.ledger = ledgerOf(options.database);
    this.timer = setInterval(() => void this.flush(), options.intervalMs);
    this.timer.unref();
  }

  /** Settled calls waiting to be written. */
  get pending(): number {
    return this.queue.length;
  }

  /** Queues one settled call; never waits for the database. */
  add(settlement: PendingSettlement): void {
    this.queue.push(settlement);
    if (this.queue.length >= this.options.batchSize && !this.scheduled) {
      // Not in the caller's stack: settle returns first, the batch runs on the next turn.
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        void this.flush();
      });
    }
  }

  /**
   * Writes everything queued so far, batch by batch (a failed batch stays queued), then has the
   * ledger write what it keeps outside settled rows (SQLite: its log journal). One flush at a
   * time: a flush asked for meanwhile runs once the running one is done.
   */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.flushNow());
    return this.flushing;
  }

  private async flushNow(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.slice(0, this.options.batchSize);
      this.queue = this.queue.slice(batch.length);
      try {
        await this.write(batch);
        this.batches.succeeded();
      } catch (error) {
        this.batches.failed(error, { settlements: batch.length });
        this.queue = batch.concat(this.queue);
        break;
      }
    }
    try {
      await this.ledger.flush(this.options.logDatabase);
      this.moves.succeeded();
    } catch (error) {
      this.moves.failed(error);
    }
  }

  private async write(batch: PendingSettlement[]): Promise<void> {
    if (!this.sharedLogs) {
      const unlogged = batch.filter((item) => item.log && !item.logged);
      if (unlogged.length > 0) {
        await insertConsumeLogs(this.options.logDatabase.db, unlogged, this.options.logDatabase.kind);
        for (const item of unlogged) item.logged = true;
      }
    }
    await this.ledger.writeSettled(batch, this.sharedLogs);
  }

  /** Stops the timer and writes what is left (one retry). */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
    if (this.queue.length > 0) await this.flush();
  }
}

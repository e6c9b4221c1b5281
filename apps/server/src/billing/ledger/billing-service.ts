import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@switchyard/shared';
import type { DatabaseHandle } from '../../db/database.ts';
import type { NewLog } from '../../db/repositories/log-repository.ts';
import { GatewayError } from '../../errors/gateway-error.ts';
import { type Linked, LinkedSet } from '../../lib/linked-set.ts';
import type { PendingSettlement } from '../settlement/settlement-entry.ts';
import type { Payer } from './balance-moves.ts';
import type { Ledger, RefundClaim } from './ledger.ts';
import { ledgerOf } from './ledger-of.ts';
import { type LedgerLog, LedgerRetries } from './ledger-retries.ts';
import type { SettleAttempt } from './settle-attempt.ts';
import { SettlementDeferred } from './settlement-deferred.ts';

export type { Payer } from './balance-moves.ts';

/** Lifecycle of one call's quota: reserved once, then settled or refunded exactly once. */
export type ReservationState = 'reserved' | 'settled' | 'refunded';

/** A reservation made before the upstream call. Settle or refund it; the second call is a no-op. */
export interface Reservation {
  readonly payer: Payer;
  readonly amount: number;
  /** The request that reserved (logged with the consume row; '' when not known). */
  readonly requestId: string;
  /** Its row in the reservation ledger; '' when nothing was reserved (amount 0). */
  readonly ledgerId: string;
  state: ReservationState;
}

/** A reservation as the service holds it open: linked into its list (ADR-33). */
type OpenReservation = Reservation & Linked<OpenReservation>;

/** What settlement actually charged. */
export interface Settlement {
  /** The quota charged in total: the real cost (the balance may go below zero). */
  charged: number;
}

/** Builds the consume log row of a settlement from the quota it charged; null when nothing is logged. */
export type ConsumeLogBuilder = (charged: number) => NewLog | null;

const noLog: ConsumeLogBuilder = () => null;

/** Where settled calls go to have their log rows and counters written (the settlement writer). */
export interface SettlementSink {
  add(settlement: PendingSettlement): void;
}

export interface BillingOptions {
  /** This process's node_instances id, stamped on its ledger rows. */
  instanceId: string;
  settlements: SettlementSink;
  /** Where failed settlements and refunds are reported (their retries too); silent when absent. */
  log?: LedgerLog;
  /** Waits between retries of a failed settlement or refund (tests shorten them). */
  retryDelaysMs?: readonly number[];
}

const silentLog: LedgerLog = { error: () => undefined, warn: () => undefined, info: () => undefined };

/**
 * Moves quota for relay calls. Reserve is one transaction of conditional decrements (no overdraft
 * under any concurrency) plus its ledger row (state 'reserved', this process's instance id).
 * Settle is one transaction that moves the balance to the real cost (refunds the excess, or
 * takes the difference in full, even below zero) and marks the ledger row 'settled' with what
 * it charged and the consume log row still to write; the settlement writer then writes the log
 * rows and the used-quota counters in batches and deletes the rows (see settlement-writer.ts).
 * Refund deletes the row and credits the reservation. A row reconciled meanwhile (its process was
 * taken for dead) is not touched twice: refund does nothing, settle charges the whole cost from
 * the balance and writes a fresh settled row. A settlement or refund the database refuses (a lost
 * connection, an outage) is retried while the process runs, only while its row is still reserved
 * (ledger-retries.ts); its reservation stays open, and held, until then.
 *
 * The database work is the dialect's ledger's (ledger.ts, `ledgerOf`): on SQLite prepared
 * statements through the connection's group commit, a settlement writing its counters in that
 * commit and its log row to the log journal instead of leaving them to the writer (ADR-21,
 * ADR-24, ADR-35, ADR-45); on PostgreSQL and MySQL one server-side routine per reserve, settle or
 * refund, and a Kysely transaction for the rare settlement the routine declines (routines/).
 */
export class BillingService {
  /**
   * Reservations of this process not yet settled or refunded (shutdown waits for them). A list
   * through the reservations themselves, not a Set: see lib/linked-set.ts.
   */
  private readonly open = new LinkedSet<OpenReservation>();
  private idleWaiters: Array<() => void> = [];
  /** The database dialect's ledger (ledger.ts): where reserve, settle and refund go. */
  private readonly ledger: Ledger;
  readonly instanceId: string;
  private readonly settlements: SettlementSink;
  private readonly retries: LedgerRetries;

  constructor(handle: DatabaseHandle, options: BillingOptions) {
    this.instanceId = options.instanceId;
    this.settlements = options.settlements;
    this.retries = new LedgerRetries(options.log ?? silentLog, options.retryDelaysMs);
    this.ledger = ledgerOf(handle);
  }

  /** How many reservations this process holds open. */
  get openCount(): number {
    return this.open.size;
  }

  /** The ledger rows this process's open reservations hold (the orphan sweep leaves them alone). */
  heldLedgerIds(): ReadonlySet<string> {
    const ids = new Set<string>();
    this.open.forEach((reservation) => {
      if (reservation.ledgerId !== '') ids.add(reservation.ledgerId);
    });
    return ids;
  }

  /** Resolves once every reservation of this process is settled or refunded, or after `timeoutMs`. */
  whenIdle(timeoutMs: number): Promise<boolean> {
    if (this.open.size === 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = setTimeout(() => resolve(false), timeoutMs);
      this.idleWaiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  private leave(reservation: Reservation, state: ReservationState): void {
    reservation.state = state;
    this.open.delete(reservation as OpenReservation);
    if (this.open.size > 0 || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Reserves `amount` from the user (and the token unless unlimited); throws a quota error if short. */
  reserve(payer: Payer, amount: number, requestId = ''): Promise<Reservation> {
    // A promise callback rather than an async function: this runs for every relay call.
    const quota = Math.max(0, Math.trunc(amount));
    const ledgerId = quota === 0 ? '' : randomUUID();
    const reservation: OpenReservation = {
      payer,
      amount: quota,
      requestId,
      ledgerId,
      state: 'reserved',
      previousLinked: null,
      nextLinked: null,
    };
    if (quota === 0) {
      this.open.add(reservation);
      return Promise.resolve(reservation);
    }
    const row = { id: ledgerId, requestId, payer, amount: quota, instanceId: this.instanceId };
    let held: Promise<'user' | 'token' | null>;
    try {
      held = this.ledger.reserve(row);
    } catch (error) {
      return Promise.reject(error);
    }
    return held.then((short) => {
      if (short) {
        const message = short === 'user' ? '用户额度不足' : '令牌额度不足';
        throw new GatewayError(ErrorCode.QuotaInsufficient, message, { status: 403 });
      }
      this.open.add(reservation);
      return reservation;
    });
  }

  /**
   * Returns the whole reservation (failed call). Safe to call more than once. Never throws: a
   * refund the database refuses is logged and retried (LedgerRetries) while the reservation stays
   * open, so the caller's own error is what its client sees.
   */
  async refund(reservation: Reservation): Promise<void> {
    if (reservation.state !== 'reserved') return;
    reservation.state = 'refunded';
    if (reservation.amount === 0) {
      this.leave(reservation, 'refunded');
      return;
    }
    const refundRow = () => this.ledger.refund(reservation.ledgerId, reservation.payer, reservation.amount);
    try {
      await refundRow();
    } catch (error) {
      this.retries.add(reservation.ledgerId, 'refund', error, refundRow, () =>
        this.leave(reservation, 'refunded'),
      );
      return;
    }
    this.leave(reservation, 'refunded');
  }

  /**
   * Charges the real cost: refunds the excess of the reservation, or takes the difference from
   * the balance in full, even below zero (as the reference does: usage is never written off; the
   * user and a limited token are then refused until topped up, since reserving needs a balance).
   * `buildLog` makes the consume log row from what was charged; it is kept in the ledger row and
   * written with the used-quota and request counters by the settlement writer. A settlement the
   * database refuses rejects with `SettlementDeferred` (already logged) and is retried
   * (LedgerRetries) while its row is still reserved; the reservation stays open until it is
   * written.
   */
  settle(
    reservation: Reservation,
    cost: number,
    channelId: number,
    buildLog?: ConsumeLogBuilder,
  ): Promise<Settlement> {
    // Promise callbacks rather than an async function: this runs for every relay call, and an
    // async function's suspended frame is larger than the two closures.
    if (reservation.state !== 'reserved') return Promise.resolve({ charged: 0 });
    reservation.state = 'settled';
    const attempt: SettleAttempt = {
      ledgerId: reservation.ledgerId,
      requestId: reservation.requestId,
      payer: reservation.payer,
      reserved: reservation.amount,
      target: Math.max(0, Math.trunc(cost)),
      channelId,
      instanceId: this.instanceId,
      buildLog: buildLog ?? noLog,
      onlyIfReserved: false,
    };
    let first: Promise<PendingSettlement | null>;
    try {
      first = this.ledger.settle(attempt);
    } catch (error) {
      first = Promise.reject(error);
    }
    return first.then(
      (pending) => {
        const settlement = this.handOn(pending);
        this.leave(reservation, 'settled');
        return settlement;
      },
      (error: unknown) => {
        if (reservation.ledgerId === '') {
          this.leave(reservation, 'settled');
          throw error;
        }
        // A retry settles only while the row is still reserved, and changes nothing when it is
        // not: the failed attempt may have been committed after all (a connection lost after
        // COMMIT); a row that attempt settled is answered for the settlement writer, a row gone
        // (written, or reconciled) as null.
        attempt.onlyIfReserved = true;
        const again = () => this.ledger.settle(attempt).then((pending) => this.handOn(pending));
        const written = new Promise<Settlement>((resolve) =>
          this.retries.add(reservation.ledgerId, 'settlement', error, again, (settlement) => {
            this.leave(reservation, 'settled');
            resolve(settlement);
          }),
        );
        throw new SettlementDeferred(error, written);
      },
    );
  }

  /** Hands what a settlement left to the settlement writer; answers what it charged (0: nothing was settled). */
  private handOn(pending: PendingSettlement | null): Settlement {
    if (pending && !pending.written) this.settlements.add(pending);
    return { charged: pending?.charged ?? 0 };
  }

  /** Stops retrying failed steps (shutdown); what they hold is reconciled once this process is gone. */
  close(): void {
    this.retries.stop();
  }

  /**
   * Refunds a failed asynchronous task exactly once, to the user and to the token (a limited
   * token's remaining quota; used quota is reversed on both), through the ledger
   * (`Ledger.refundClaimed`). `claim` runs first in the same transaction and must be a conditional
   * update of the task row (e.g. "set FAILURE/100% where still unfinished"): only when it changed
   * the row is the quota credited, so two pollers, two nodes or a restart that see the same
   * failure refund it once. Returns whether this call refunded.
   */
  refundTaskOnce(
    payer: { userId: number; tokenId: number },
    amount: number,
    claim: RefundClaim,
  ): Promise<boolean> {
    return this.ledger.refundClaimed(payer.userId, payer.tokenId, Math.max(0, Math.trunc(amount)), claim);
  }
}

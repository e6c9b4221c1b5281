import { randomUUID } from 'node:crypto';
import { ErrorCode } from '@switchyard/shared';
import { sql, type Transaction } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { GatewayError } from '../errors/gateway-error.ts';
import { chargeAgainstReservation, credit, type Payer } from './balance-moves.ts';

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

/** What settlement actually charged. */
export interface Settlement {
  /** The quota charged in total (reservation adjusted to the real cost, capped by the balance). */
  charged: number;
  /** Cost the balance could not cover (written off, reported in the log). */
  shortfall: number;
}

export const quotaError = (message: string) =>
  new GatewayError(ErrorCode.QuotaInsufficient, message, { status: 403 });

/**
 * Moves quota for relay calls. Reserve is one transaction of conditional decrements (no
 * overdraft under any concurrency) plus its ledger row; settle charges the difference to the
 * real cost, never below zero; refund returns the reservation. Settle and refund close the
 * ledger row in their own transaction, so a reservation is returned or charged exactly once even
 * when start-up reconciliation (see reservation-ledger.ts) got to it first: then refund does
 * nothing and settle charges the whole cost from the balance.
 */
export class BillingService {
  /** Reservations of this process not yet settled or refunded (shutdown waits for them). */
  private readonly open = new Set<Reservation>();
  private idleWaiters: Array<() => void> = [];

  constructor(private readonly handle: DatabaseHandle) {}

  /** How many reservations this process holds open. */
  get openCount(): number {
    return this.open.size;
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
    this.open.delete(reservation);
    if (this.open.size > 0 || this.idleWaiters.length === 0) return;
    const waiters = this.idleWaiters;
    this.idleWaiters = [];
    for (const wake of waiters) wake();
  }

  /** Reserves `amount` from the user (and the token unless unlimited); throws a quota error if short. */
  async reserve(payer: Payer, amount: number, requestId = ''): Promise<Reservation> {
    const quota = Math.max(0, Math.trunc(amount));
    const ledgerId = quota === 0 ? '' : randomUUID();
    const reservation: Reservation = { payer, amount: quota, requestId, ledgerId, state: 'reserved' };
    if (quota > 0) await this.hold(reservation);
    this.open.add(reservation);
    return reservation;
  }

  private async hold(reservation: Reservation): Promise<void> {
    const { payer, amount: quota, ledgerId, requestId } = reservation;
    const tokenLimited = payer.tokenId > 0 && !payer.tokenUnlimited;
    await this.handle.db.transaction().execute(async (trx) => {
      // The ledger row first: every transaction touching a reservation locks it before the
      // balances (reconcile and settle delete it first), so MySQL never sees opposite lock orders.
      await trx
        .insertInto('reservations')
        .values({
          id: ledgerId,
          request_id: requestId.slice(0, 64),
          user_id: payer.userId,
          token_id: payer.tokenId,
          token_limited: tokenLimited ? 1 : 0,
          amount: quota,
          created_at: Date.now(),
        })
        .execute();
      const user = await trx
        .updateTable('users')
        .set({ quota: sql`quota - ${quota}` })
        .where('id', '=', payer.userId)
        .where('quota', '>=', quota)
        .executeTakeFirst();
      if (Number(user.numUpdatedRows) === 0) throw quotaError('用户额度不足');
      if (tokenLimited) {
        const token = await trx
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota - ${quota}` })
          .where('id', '=', payer.tokenId)
          .where('remain_quota', '>=', quota)
          .executeTakeFirst();
        if (Number(token.numUpdatedRows) === 0) throw quotaError('令牌额度不足');
      }
    });
  }

  /** Returns the whole reservation (failed call). Safe to call more than once. */
  async refund(reservation: Reservation): Promise<void> {
    if (reservation.state !== 'reserved') return;
    reservation.state = 'refunded';
    try {
      if (reservation.amount === 0) return;
      await this.handle.db.transaction().execute(async (trx) => {
        // Already reconciled (refunded) by a restarted master: nothing is left to return.
        if (await closeLedgerRow(trx, reservation)) await credit(trx, reservation.payer, reservation.amount);
      });
    } finally {
      this.leave(reservation, 'refunded');
    }
  }

  /**
   * Charges the real cost: refunds the excess of the reservation, or takes the difference from
   * the balance as far as it goes (the rest is reported as shortfall, never a negative balance).
   * Bumps used quota and request counts of user, token and channel.
   */
  async settle(reservation: Reservation, cost: number, channelId: number): Promise<Settlement> {
    if (reservation.state !== 'reserved') return { charged: 0, shortfall: 0 };
    reservation.state = 'settled';
    const target = Math.max(0, Math.trunc(cost));
    try {
      return await this.settleInTransaction(reservation, target, channelId);
    } finally {
      this.leave(reservation, 'settled');
    }
  }

  private settleInTransaction(
    reservation: Reservation,
    target: number,
    channelId: number,
  ): Promise<Settlement> {
    return this.handle.db.transaction().execute(async (trx) => {
      // A reservation reconciled meanwhile was given back: charge the whole cost from the balance.
      const held =
        reservation.amount > 0 && (await closeLedgerRow(trx, reservation)) ? reservation.amount : 0;
      const charged = await chargeAgainstReservation(
        trx,
        this.handle.kind,
        reservation.payer,
        held,
        target,
        channelId,
      );
      return { charged, shortfall: target - charged };
    });
  }

  /**
   * Refunds a failed asynchronous task exactly once, to the user and to the token (a limited
   * token's remaining quota; used quota is reversed on both). `claim` runs first in the same
   * transaction and must be a conditional update of the task row (e.g. "set FAILURE/100% where
   * still unfinished"): only when it changed the row is the quota credited, so two pollers, two
   * nodes or a restart that see the same failure refund it once. Returns whether this call refunded.
   */
  async refundTaskOnce(
    payer: { userId: number; tokenId: number },
    amount: number,
    claim: (trx: Transaction<Database>) => Promise<boolean>,
  ): Promise<boolean> {
    const quota = Math.max(0, Math.trunc(amount));
    return this.handle.db.transaction().execute(async (trx) => {
      if (!(await claim(trx))) return false;
      if (quota === 0) return true;
      await trx
        .updateTable('users')
        .set({ quota: sql`quota + ${quota}`, used_quota: sql`used_quota - ${quota}` })
        .where('id', '=', payer.userId)
        .execute();
      if (payer.tokenId > 0) {
        await trx
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota + ${quota}` })
          .where('id', '=', payer.tokenId)
          .where('unlimited_quota', '=', 0)
          .execute();
        await trx
          .updateTable('tokens')
          .set({ used_quota: sql`used_quota - ${quota}` })
          .where('id', '=', payer.tokenId)
          .execute();
      }
      return true;
    });
  }
}

/** Deletes the reservation's ledger row; false when it was already gone (reconciled elsewhere). */
async function closeLedgerRow(trx: Transaction<Database>, reservation: Reservation): Promise<boolean> {
  if (!reservation.ledgerId) return true;
  const result = await trx
    .deleteFrom('reservations')
    .where('id', '=', reservation.ledgerId)
    .executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

import { ErrorCode } from '@switchyard/shared';
import { type Kysely, sql, type Transaction } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import type { Database } from '../db/schema.ts';
import { GatewayError } from '../errors/gateway-error.ts';

/** Who pays for a relay call. */
export interface Payer {
  userId: number;
  /** 0 for the playground (no token involved). */
  tokenId: number;
  /** An unlimited token's remaining quota is never touched. */
  tokenUnlimited: boolean;
}

/** Lifecycle of one call's quota: reserved once, then settled or refunded exactly once. */
export type ReservationState = 'reserved' | 'settled' | 'refunded';

/** A reservation made before the upstream call. Settle or refund it; the second call is a no-op. */
export interface Reservation {
  readonly payer: Payer;
  readonly amount: number;
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

type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Moves quota for relay calls. Reserve is one transaction of conditional decrements (no
 * overdraft under any concurrency); settle charges the difference to the real cost, never
 * below zero; refund returns the reservation. Each Reservation can leave the reserved state once.
 */
export class BillingService {
  constructor(private readonly handle: DatabaseHandle) {}

  /** Reserves `amount` from the user (and the token unless unlimited); throws a quota error if short. */
  async reserve(payer: Payer, amount: number): Promise<Reservation> {
    const reservation: Reservation = { payer, amount: Math.max(0, Math.trunc(amount)), state: 'reserved' };
    if (reservation.amount === 0) return reservation;
    await this.handle.db.transaction().execute(async (trx) => {
      const user = await trx
        .updateTable('users')
        .set({ quota: sql`quota - ${reservation.amount}` })
        .where('id', '=', payer.userId)
        .where('quota', '>=', reservation.amount)
        .executeTakeFirst();
      if (Number(user.numUpdatedRows) === 0) throw quotaError('用户额度不足');
      if (payer.tokenId > 0 && !payer.tokenUnlimited) {
        const token = await trx
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota - ${reservation.amount}` })
          .where('id', '=', payer.tokenId)
          .where('remain_quota', '>=', reservation.amount)
          .executeTakeFirst();
        if (Number(token.numUpdatedRows) === 0) throw quotaError('令牌额度不足');
      }
    });
    return reservation;
  }

  /** Returns the whole reservation (failed call). Safe to call more than once. */
  async refund(reservation: Reservation): Promise<void> {
    if (reservation.state !== 'reserved') return;
    reservation.state = 'refunded';
    if (reservation.amount === 0) return;
    await this.handle.db
      .transaction()
      .execute((trx) => this.credit(trx, reservation.payer, reservation.amount));
  }

  /**
   * Charges the real cost: refunds the excess of the reservation, or takes the difference from
   * the balance as far as it goes (the rest is reported as shortfall, never a negative balance).
   * Bumps used quota and request counts of user, token and channel.
   */
  async settle(reservation: Reservation, cost: number, channelId: number): Promise<Settlement> {
    if (reservation.state !== 'reserved') return { charged: 0, shortfall: 0 };
    reservation.state = 'settled';
    const { payer, amount } = reservation;
    const target = Math.max(0, Math.trunc(cost));
    return this.handle.db.transaction().execute(async (trx) => {
      let charged = target;
      if (target < amount) {
        await this.credit(trx, payer, amount - target);
      } else if (target > amount) {
        const extra = await this.debitUpTo(trx, payer, target - amount);
        charged = amount + extra;
      }
      const now = Math.floor(Date.now() / 1000);
      await trx
        .updateTable('users')
        .set({ used_quota: sql`used_quota + ${charged}`, request_count: sql`request_count + 1` })
        .where('id', '=', payer.userId)
        .execute();
      if (payer.tokenId > 0) {
        await trx
          .updateTable('tokens')
          .set({ used_quota: sql`used_quota + ${charged}`, accessed_time: now })
          .where('id', '=', payer.tokenId)
          .execute();
      }
      if (channelId > 0 && charged > 0) {
        await trx
          .updateTable('channels')
          .set({ used_quota: sql`used_quota + ${charged}` })
          .where('id', '=', channelId)
          .execute();
      }
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

  private async credit(executor: Executor, payer: Payer, amount: number): Promise<void> {
    await executor
      .updateTable('users')
      .set({ quota: sql`quota + ${amount}` })
      .where('id', '=', payer.userId)
      .execute();
    if (payer.tokenId > 0 && !payer.tokenUnlimited) {
      await executor
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota + ${amount}` })
        .where('id', '=', payer.tokenId)
        .execute();
    }
  }

  /** Takes up to `wanted` from user and token, limited by both balances; returns what was taken. */
  private async debitUpTo(trx: Transaction<Database>, payer: Payer, wanted: number): Promise<number> {
    const lock = this.handle.kind === 'sqlite' ? '' : ' FOR UPDATE';
    const userRow = await sql<{
      quota: number;
    }>`SELECT quota FROM users WHERE id = ${payer.userId}${sql.raw(lock)}`.execute(trx);
    let available = Math.max(0, Number(userRow.rows[0]?.quota ?? 0));
    const limitedToken = payer.tokenId > 0 && !payer.tokenUnlimited;
    if (limitedToken) {
      const tokenRow = await sql<{
        remain_quota: number;
      }>`SELECT remain_quota FROM tokens WHERE id = ${payer.tokenId}${sql.raw(lock)}`.execute(trx);
      available = Math.min(available, Math.max(0, Number(tokenRow.rows[0]?.remain_quota ?? 0)));
    }
    const take = Math.min(wanted, available);
    if (take > 0) {
      await trx
        .updateTable('users')
        .set({ quota: sql`quota - ${take}` })
        .where('id', '=', payer.userId)
        .execute();
      if (limitedToken) {
        await trx
          .updateTable('tokens')
          .set({ remain_quota: sql`remain_quota - ${take}` })
          .where('id', '=', payer.tokenId)
          .execute();
      }
    }
    return take;
  }
}

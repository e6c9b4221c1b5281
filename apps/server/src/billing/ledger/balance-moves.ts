import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { RefundClaim } from './ledger.ts';

/** Who pays for a relay call. */
export interface Payer {
  userId: number;
  /** 0 for the playground (no token involved). */
  tokenId: number;
  /** An unlimited token's remaining quota is never touched. */
  tokenUnlimited: boolean;
}

export type Executor = Kysely<Database> | Transaction<Database>;

/**
 * Gives `amount` back to the user and, when limited, to the token's remaining quota; a negative
 * amount takes it (a cost beyond the reservation, in full, even below zero: usage is never
 * written off). Used-quota and request counters are the settlement's (`Ledger.writeSettled`).
 */
export async function credit(executor: Executor, payer: Payer, amount: number): Promise<void> {
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

/**
 * `Ledger.refundClaimed` in one Kysely transaction, as every dialect runs it (a rare path: failed
 * tasks): `claim` first, then, only when it changed its row, `amount` back to the user and a
 * limited token and off both used quotas.
 */
export function refundClaimedIn(
  db: Kysely<Database>,
  userId: number,
  tokenId: number,
  amount: number,
  claim: RefundClaim,
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    if (!(await claim(trx))) return false;
    if (amount === 0) return true;
    await trx
      .updateTable('users')
      .set({ quota: sql`quota + ${amount}`, used_quota: sql`used_quota - ${amount}` })
      .where('id', '=', userId)
      .execute();
    if (tokenId > 0) {
      await trx
        .updateTable('tokens')
        .set({ remain_quota: sql`remain_quota + ${amount}` })
        .where('id', '=', tokenId)
        .where('unlimited_quota', '=', 0)
        .execute();
      await trx
        .updateTable('tokens')
        .set({ used_quota: sql`used_quota - ${amount}` })
        .where('id', '=', tokenId)
        .execute();
    }
    return true;
  });
}

import { type Kysely, sql, type Transaction } from 'kysely';
import type { Database } from '../../db/schema.ts';

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

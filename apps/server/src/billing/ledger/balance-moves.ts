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

/** Gives `amount` back to the user and, when limited, to the token's remaining quota. */
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
 * Moves a reservation of `reserved` to the real cost `target` inside a transaction: refunds the
 * excess, or takes the difference in full, even below zero (as the reference does: usage is
 * never written off; a user or token below zero is refused until topped up, since every priced
 * call must hold a reservation against a positive balance). Returns what was charged: `target`.
 * The used-quota and request counters are not touched here: the settlement writer adds them in
 * batches (see settlement-writer.ts).
 */
export async function moveToCost(
  trx: Transaction<Database>,
  payer: Payer,
  reserved: number,
  target: number,
): Promise<number> {
  if (target !== reserved) await credit(trx, payer, reserved - target);
  return target;
}

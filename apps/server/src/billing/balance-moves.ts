import { type Kysely, sql, type Transaction } from 'kysely';
import type { DatabaseKind } from '../config/env.ts';
import type { Database } from '../db/schema.ts';

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

/** Takes up to `wanted` from user and token, limited by both balances; returns what was taken. */
export async function debitUpTo(
  trx: Transaction<Database>,
  kind: DatabaseKind,
  payer: Payer,
  wanted: number,
): Promise<number> {
  const lock = kind === 'sqlite' ? '' : ' FOR UPDATE';
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

/**
 * Moves a reservation of `reserved` to the real cost `target` inside a transaction: refunds the
 * excess, or takes the difference as far as the balances go. Returns what was charged in total.
 * The used-quota and request counters are not touched here: the settlement writer adds them in
 * batches (see settlement-writer.ts).
 */
export async function moveToCost(
  trx: Transaction<Database>,
  kind: DatabaseKind,
  payer: Payer,
  reserved: number,
  target: number,
): Promise<number> {
  if (target < reserved) {
    await credit(trx, payer, reserved - target);
    return target;
  }
  if (target > reserved) return reserved + (await debitUpTo(trx, kind, payer, target - reserved));
  return target;
}

import { randomUUID } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DatabaseHandle } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import { encodeEntry, type PendingSettlement, pendingFromRow } from '../../settlement/settlement-entry.ts';
import { moveToCost } from '../balance-moves.ts';
import { type SettleAttempt, stampLog } from '../settle-attempt.ts';
import type { LedgerRoutines } from './ledger-routines.ts';

/**
 * PostgreSQL/MySQL's common case in one round trip: the reserved row settles at the full cost.
 * Null when the routine changed nothing (row reconciled meanwhile, or a balance too short for
 * the cost beyond the reservation, which migration 005's routines decline): the general
 * transaction handles those, charging the whole cost even below zero.
 */
export async function settleByRoutine(
  routines: LedgerRoutines,
  attempt: SettleAttempt,
): Promise<PendingSettlement | null> {
  const { payer, ledgerId, reserved, target, channelId } = attempt;
  if (ledgerId === '') return null;
  const at = Math.floor(Date.now() / 1000);
  const log = stampLog(attempt.buildLog(target, 0), at);
  const outcome = await routines.settle({
    id: ledgerId,
    payer,
    reserved,
    target,
    channelId,
    entry: encodeEntry(at, log),
  });
  if (outcome !== 'settled') return null;
  return { id: ledgerId, userId: payer.userId, tokenId: payer.tokenId, channelId, charged: target, at, log };
}

/**
 * The general settlement on PostgreSQL/MySQL, in one Kysely transaction: claims the reserved row,
 * moves the balance to the cost (in full, even below zero), and records what was charged. A row no
 * longer reserved (reconciled meanwhile, or nothing reserved) takes the whole cost from the
 * balance and writes a fresh settled row; with `onlyIfReserved` (a retry) it changes nothing and
 * answers the row an earlier attempt settled after all (for the settlement writer), else null.
 */
export function settleInTransaction(
  handle: DatabaseHandle,
  attempt: SettleAttempt,
): Promise<PendingSettlement | null> {
  const { payer, ledgerId, target, channelId, buildLog } = attempt;
  return handle.db.transaction().execute(async (trx) => {
    const at = Math.floor(Date.now() / 1000);
    const log = stampLog(buildLog(target, 0), at);
    // Claim the row first (lock order: ledger row, then balances).
    const claimed =
      ledgerId !== '' &&
      Number(
        (
          await trx
            .updateTable('reservations')
            .set({ state: 'settled', charged: target, channel_id: channelId, entry: encodeEntry(at, log) })
            .where('id', '=', ledgerId)
            .where('state', '=', 'reserved')
            .executeTakeFirst()
        ).numUpdatedRows,
      ) > 0;
    if (!claimed && attempt.onlyIfReserved) {
      // The failed attempt may have been committed: hand its settled row to the writer.
      const settled = await trx
        .selectFrom('reservations')
        .selectAll()
        .where('id', '=', ledgerId)
        .where('state', '=', 'settled')
        .executeTakeFirst();
      return settled ? pendingFromRow(settled) : null;
    }
    const held = claimed ? attempt.reserved : 0;
    const charged = await moveToCost(trx, payer, held, target);
    let id = ledgerId;
    if (!claimed) {
      id = randomUUID();
      await insertSettledRow(trx, { ...attempt, id, charged, entry: encodeEntry(at, log) });
    }
    return { id, userId: payer.userId, tokenId: payer.tokenId, channelId, charged, at, log };
  });
}

/** A settled row for a settlement that found no reserved row (nothing reserved, or reconciled). */
async function insertSettledRow(
  trx: Transaction<Database>,
  row: SettleAttempt & { id: string; charged: number; entry: string },
): Promise<void> {
  await trx
    .insertInto('reservations')
    .values({
      id: row.id,
      request_id: row.requestId.slice(0, 64),
      user_id: row.payer.userId,
      token_id: row.payer.tokenId,
      token_limited: row.payer.tokenId > 0 && !row.payer.tokenUnlimited ? 1 : 0,
      amount: 0,
      created_at: Date.now(),
      instance_id: row.instanceId,
      state: 'settled',
      charged: row.charged,
      channel_id: row.channelId,
      entry: row.entry,
    })
    .execute();
}

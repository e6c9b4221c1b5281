import { randomUUID } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { DatabaseHandle } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import { encodeEntry, type PendingSettlement, pendingFromRow } from '../../settlement/settlement-entry.ts';
import { moveToCost, type Payer } from '../balance-moves.ts';
import type { Ledger, RefundClaim, ReserveRow } from '../ledger.ts';
import { type SettleAttempt, stampLog } from '../settle-attempt.ts';
import type { ServerKind } from './compiled-statements.ts';
import { RoutineGroups } from './routine-groups.ts';

const limitedFlag = (payer: Payer) => (payer.tokenId > 0 && !payer.tokenUnlimited ? 1 : 0);

/**
 * What the PostgreSQL and MySQL ledgers share: reserve, settle and refund each call one routine
 * (PostgreSQL functions, `SELECT f(...)`, ../postgres/postgres-routines.ts; MySQL/MariaDB
 * procedures, `CALL p(...)`, ../mysql/mysql-routines.ts):
 * one round trip and one server-side transaction, outside any Kysely transaction; one user's calls
 * of one event-loop turn share that round trip and transaction (routine-groups.ts). A settlement
 * leaves its row 'settled' with its consume log row in `entry`, for the settlement writer's batch
 * (`writeSettled`, per dialect). The settle routine declines what is not the common case (a row
 * reconciled meanwhile, a balance too short for the cost beyond the reservation); those settle in
 * a Kysely transaction (`settleInTransaction`).
 */
export abstract class ServerLedger implements Ledger {
  private readonly groups: RoutineGroups;

  constructor(
    protected readonly handle: DatabaseHandle,
    kind: ServerKind,
  ) {
    this.groups = new RoutineGroups(handle.db, kind);
  }

  abstract writeSettled(batch: readonly PendingSettlement[], withLogs: boolean): Promise<number>;

  /** Nothing waits outside the settled rows on a database server. */
  flush(): Promise<void> {
    return Promise.resolve();
  }

  async reserve(row: ReserveRow): Promise<'user' | 'token' | null> {
    const { payer } = row;
    const code = await this.groups.call(payer.userId, 'switchyard_reserve', [
      row.id,
      row.requestId.slice(0, 64),
      payer.userId,
      payer.tokenId,
      limitedFlag(payer),
      row.amount,
      Date.now(),
      row.instanceId,
    ]);
    return code === 0 ? null : code === 2 ? 'token' : 'user';
  }

  async refund(id: string, payer: Payer, amount: number): Promise<boolean> {
    const code = await this.groups.call(payer.userId, 'switchyard_refund', [
      id,
      payer.userId,
      payer.tokenId,
      limitedFlag(payer),
      amount,
    ]);
    return code === 1;
  }

  /** A Kysely transaction: the rare task refund needs no routine of its own. */
  refundClaimed(userId: number, tokenId: number, amount: number, claim: RefundClaim): Promise<boolean> {
    return this.handle.db.transaction().execute(async (trx) => {
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

  async settle(attempt: SettleAttempt): Promise<PendingSettlement | null> {
    return (await this.settleByRoutine(attempt)) ?? (await settleInTransaction(this.handle, attempt));
  }

  /**
   * The common case in one round trip: the reserved row settles at the full cost. Null when the
   * routine changed nothing (code 1: the row is no longer reserved; 2: the balance cannot cover
   * the cost beyond the reservation).
   */
  private async settleByRoutine(attempt: SettleAttempt): Promise<PendingSettlement | null> {
    const { payer, ledgerId, reserved, target, channelId } = attempt;
    if (ledgerId === '') return null;
    const at = Math.floor(Date.now() / 1000);
    const log = stampLog(attempt.buildLog(target, 0), at);
    const code = await this.groups.call(payer.userId, 'switchyard_settle', [
      ledgerId,
      payer.userId,
      payer.tokenId,
      limitedFlag(payer),
      reserved,
      target,
      channelId,
      encodeEntry(at, log),
    ]);
    if (code !== 0) return null;
    return {
      id: ledgerId,
      userId: payer.userId,
      tokenId: payer.tokenId,
      channelId,
      charged: target,
      at,
      log,
    };
  }
}

/**
 * The general settlement on PostgreSQL/MySQL, in one Kysely transaction: claims the reserved row,
 * moves the balance to the cost (in full, even below zero), and records what was charged. A row no
 * longer reserved (reconciled meanwhile, or nothing reserved) takes the whole cost from the
 * balance and writes a fresh settled row; with `onlyIfReserved` (a retry) it changes nothing and
 * answers the row an earlier attempt settled after all (for the settlement writer), else null.
 */
function settleInTransaction(
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
      token_limited: limitedFlag(row.payer),
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

import { randomUUID } from 'node:crypto';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import type { DatabaseHandle } from '../../../db/database.ts';
import type { Database } from '../../../db/schema.ts';
import { encodeEntry, type PendingSettlement, pendingFromRow } from '../../settlement/settlement-entry.ts';
import { credit, type Executor, type Payer, refundClaimedIn } from '../balance-moves.ts';
import { insertConsumeLogs } from '../consume-logs.ts';
import type { Ledger, RefundClaim, ReserveRow } from '../ledger.ts';
import { type SettleAttempt, stampLog } from '../settle-attempt.ts';
import type { RoutineInvocation, ServerKind } from './compiled-statements.ts';
import { RoutineGroups } from './routine-groups.ts';

/** What one database server's ledger does its own way (`../postgres/`, `../mysql/`). */
export interface ServerDialect {
  kind: ServerKind;
  /** Most calls in one group statement. */
  groupLimit: number;
  /** One routine call in a statement of its own. */
  callQuery(call: RoutineInvocation): CompiledQuery;
  /** One user's calls of a turn as one statement, run in order in one transaction. */
  groupQuery(calls: readonly RoutineInvocation[]): CompiledQuery;
  /** A group statement's answer: one result per call, in order. */
  readGroup(rows: readonly unknown[], count: number): unknown[];
  /** The statements that open the settlement batch's transaction. */
  batchBegin: readonly string[];
  /** Deletes those of `ids` that are settled ledger rows in the batch's transaction; answers the ids deleted. */
  claimSettled(trx: Executor, ids: readonly string[]): Promise<Set<string>>;
  /** Sends the batch's counters and its COMMIT in one round trip. */
  finishBatch(connection: Kysely<Database>, mine: PendingSettlement[]): Promise<unknown>;
}

const limitedFlag = (payer: Payer) => (payer.tokenId > 0 && !payer.tokenUnlimited ? 1 : 0);

/**
 * The ledger on PostgreSQL and MySQL/MariaDB: reserve, settle and refund each call one routine
 * (PostgreSQL functions, `SELECT f(...)`, ../postgres/postgres-routines.ts; MySQL/MariaDB
 * procedures, `CALL p(...)`, ../mysql/mysql-routines.ts):
 * one round trip and one server-side transaction, outside any Kysely transaction; one user's calls
 * of one event-loop turn share that round trip and transaction (routine-groups.ts). A settlement
 * leaves its row 'settled' with its consume log row in `entry`, for the settlement writer's batch
 * (`writeSettled`). The settle routine declines what is not the common case (a row reconciled
 * meanwhile, a balance too short for the cost beyond the reservation); those settle in a Kysely
 * transaction (`settleInTransaction`). What differs between the two servers is the dialect's.
 */
export class ServerLedger implements Ledger {
  private readonly groups: RoutineGroups;

  constructor(
    private readonly handle: DatabaseHandle,
    private readonly dialect: ServerDialect,
  ) {
    this.groups = new RoutineGroups(handle.db, dialect);
  }

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

  /** A Kysely transaction (balance-moves.ts): the rare task refund needs no routine of its own. */
  refundClaimed(userId: number, tokenId: number, amount: number, claim: RefundClaim): Promise<boolean> {
    return refundClaimedIn(this.handle.db, userId, tokenId, amount, claim);
  }

  async settle(attempt: SettleAttempt): Promise<PendingSettlement | null> {
    return (await this.settleByRoutine(attempt)) ?? (await this.settleInTransaction(attempt));
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
    const log = stampLog(attempt.buildLog(target), at);
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

  /**
   * The general settlement, in one Kysely transaction: claims the reserved row, moves the balance
   * to the cost (in full, even below zero), and records what was charged. A row no longer
   * reserved (reconciled meanwhile, or nothing reserved) takes the whole cost from the balance and
   * writes a fresh settled row; with `onlyIfReserved` (a retry) it changes nothing and answers the
   * row an earlier attempt settled after all (for the settlement writer), else null.
   */
  private settleInTransaction(attempt: SettleAttempt): Promise<PendingSettlement | null> {
    const { payer, ledgerId, target, channelId } = attempt;
    return this.handle.db.transaction().execute(async (trx) => {
      const at = Math.floor(Date.now() / 1000);
      const log = stampLog(attempt.buildLog(target), at);
      const entry = encodeEntry(at, log);
      // Claim the row first (lock order: ledger row, then balances).
      const claimed =
        ledgerId !== '' &&
        Number(
          (
            await trx
              .updateTable('reservations')
              .set({ state: 'settled', charged: target, channel_id: channelId, entry })
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
      if (target !== held) await credit(trx, payer, held - target);
      let id = ledgerId;
      if (!claimed) {
        id = randomUUID();
        await trx
          .insertInto('reservations')
          .values({
            id,
            request_id: attempt.requestId.slice(0, 64),
            user_id: payer.userId,
            token_id: payer.tokenId,
            token_limited: limitedFlag(payer),
            amount: 0,
            created_at: Date.now(),
            instance_id: attempt.instanceId,
            state: 'settled',
            charged: target,
            channel_id: channelId,
            entry,
          })
          .execute();
      }
      return { id, userId: payer.userId, tokenId: payer.tokenId, channelId, charged: target, at, log };
    });
  }

  /**
   * A settlement batch on one pooled connection: the dialect's `batchBegin` opens the transaction,
   * the batch's settled rows are claimed (`claimSettled`: only those this transaction deleted are
   * written, so a row reconciled meanwhile by another node is not written twice) and, when
   * `withLogs`, the consume log rows of those claimed inserted; then `finishBatch` sends the
   * counters and the commit in one round trip (a message of statements, or a CALL), so the counted
   * rows are locked only inside the server. Any error rolls the whole batch back and is raised
   * again. Answers how many rows it wrote.
   */
  writeSettled(batch: readonly PendingSettlement[], withLogs: boolean): Promise<number> {
    const { dialect } = this;
    return this.handle.db.connection().execute(async (connection) => {
      for (const statement of dialect.batchBegin) await sql.raw(statement).execute(connection);
      try {
        const ids = batch.map((item) => item.id);
        const claimed = ids.length === 0 ? new Set<string>() : await dialect.claimSettled(connection, ids);
        const mine = batch.filter((item) => claimed.has(item.id));
        if (withLogs) await insertConsumeLogs(connection, mine, dialect.kind);
        await dialect.finishBatch(connection, mine);
        return mine.length;
      } catch (error) {
        await sql`ROLLBACK`.execute(connection).catch(() => undefined);
        throw error;
      }
    });
  }
}

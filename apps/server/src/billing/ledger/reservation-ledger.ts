import { formatQuota as formatQuotaText, LogType } from '@switchyard/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Insertable, Selectable } from 'kysely';
import type { DatabaseHandle } from '../../db/database.ts';
import type { LogTable, ReservationTable } from '../../db/schema.ts';
import { deadInstanceIds, nextDeathCheck } from '../../nodes/instance-liveness.ts';
import type { OptionStore } from '../../options/option-store.ts';
import { encodeEntry, type PendingSettlement, pendingFromRow } from '../settlement/settlement-entry.ts';
import { credit, type Payer } from './balance-moves.ts';
import { findConsumeLog, insertMissingConsumeLogs } from './consume-logs.ts';
import { ledgerOf } from './ledger-of.ts';

/** What reconciliation needs: the main database, where log rows go, and how to show quota. */
export interface LedgerDependencies {
  database: DatabaseHandle;
  /** The logs database (the main one unless LOG_SQL_DSN is set). */
  logDatabase: DatabaseHandle;
  formatQuota: (quota: number) => string;
  log: FastifyBaseLogger;
  /** The reconciling process's own instance id (its rows are never reconciled). */
  instanceId: string;
  /** A process whose heartbeat is older than this is dead (milliseconds). */
  deadAfterMs: number;
}

/** How many ledger rows one pass closed, by outcome. */
export interface ReconcileResult {
  /** 'reserved' rows given back. */
  refunded: number;
  /** 'reserved' rows settled from a consume log their request wrote. */
  settled: number;
  /** 'settled' rows whose log row and counters were written. */
  completed: number;
}

export type LedgerRow = Selectable<ReservationTable>;

/**
 * Why a 'reserved' row is being closed: its process died, or its own live process holds no call
 * for it any more (orphan-sweep.ts).
 */
export type ReconcileCause = 'dead' | 'orphan';

/**
 * Closes one 'reserved' row of a dead process (or an orphan of a live one): in one transaction,
 * takes it out of 'reserved' (only the caller that does goes on) and either settles it at the
 * quota its consume log recorded (the balance moved, the row left 'settled' without a log row) or
 * deletes it and refunds it to user and token, and writes a system log row (in the same
 * transaction when logs share the main database). A settled row's counters are then written the
 * way the dialect's ledger writes every settled row (`Ledger.writeSettled`). Returns the outcome,
 * or null when another node closed it first.
 */
export async function reconcileReserved(
  deps: LedgerDependencies,
  row: LedgerRow,
  cause: ReconcileCause = 'dead',
): Promise<'refunded' | 'settled' | null> {
  const { database, logDatabase, formatQuota } = deps;
  const consume = await findConsumeLog(logDatabase.db, row);
  const sharedLogs = logDatabase === database;
  const amount = Number(row.amount);
  const payer: Payer = {
    userId: row.user_id,
    tokenId: row.token_id,
    tokenUnlimited: row.token_limited === 0,
  };
  const at = Math.floor(Date.now() / 1000);
  const charged = consume ? Math.max(0, Math.trunc(Number(consume.quota))) : 0;
  const outcome = await database.db.transaction().execute(async (trx) => {
    // Only the caller that takes the row out of 'reserved' goes on: settled at the logged cost
    // (its counters written below, the way the dialect writes settled rows), or deleted.
    const taken = consume
      ? (
          await trx
            .updateTable('reservations')
            .set({ state: 'settled', charged, channel_id: consume.channel_id, entry: encodeEntry(at, null) })
            .where('id', '=', row.id)
            .where('state', '=', 'reserved')
            .executeTakeFirst()
        ).numUpdatedRows
      : (
          await trx
            .deleteFrom('reservations')
            .where('id', '=', row.id)
            .where('state', '=', 'reserved')
            .executeTakeFirst()
        ).numDeletedRows;
    if (Number(taken) === 0) return null;
    // The balance moves to the logged cost (in full, even below zero), or gets the whole amount back.
    const back = consume ? amount - charged : amount;
    if (back !== 0) await credit(trx, payer, back);
    let content: string;
    let other: Record<string, unknown>;
    if (consume) {
      content = `预扣额度对账：请求 ${row.request_id} 已记录消费，按消费日志结算 ${formatQuota(charged)}（预扣 ${formatQuota(amount)}）`;
      other = { reconciled: 'settled', charged_quota: charged };
    } else {
      const why = cause === 'dead' ? '在服务退出前未结算' : '已无进行中的调用持有';
      content = `预扣额度对账：请求 ${row.request_id || row.id} ${why}，退还预扣额度 ${formatQuota(amount)}`;
      other = { reconciled: 'refunded', ...(cause === 'orphan' ? { orphan: true } : {}) };
    }
    const user = await trx
      .selectFrom('users')
      .select('username')
      .where('id', '=', row.user_id)
      .executeTakeFirst();
    const token =
      row.token_id > 0
        ? await trx.selectFrom('tokens').select('name').where('id', '=', row.token_id).executeTakeFirst()
        : undefined;
    const logRow: Insertable<LogTable> = {
      type: LogType.System,
      created_at: at,
      user_id: row.user_id,
      username: user?.username ?? '',
      token_id: row.token_id,
      token_name: token?.name ?? '',
      channel_id: consume?.channel_id ?? 0,
      quota: consume ? 0 : amount,
      content,
      other: JSON.stringify({
        request_id: row.request_id,
        reservation_id: row.id,
        reserved_quota: amount,
        ...other,
      }),
    };
    if (sharedLogs) await trx.insertInto('logs').values(logRow).execute();
    return { result: consume ? ('settled' as const) : ('refunded' as const), logRow };
  });
  if (!outcome) return null;
  if (consume) {
    const settled: PendingSettlement = {
      id: row.id,
      userId: row.user_id,
      tokenId: row.token_id,
      channelId: consume.channel_id,
      charged,
      at,
      log: null,
    };
    // A failure here leaves the settled row for the next pass, as a dead writer's.
    await ledgerOf(database).writeSettled([settled], false);
  }
  if (!sharedLogs) await logDatabase.db.insertInto('logs').values(outcome.logRow).execute();
  return outcome.result;
}

/**
 * Finishes one 'settled' row of a dead process: its balance already moved at settlement; what is
 * left is its consume log row (kept in `entry`) and its counters, written as the settlement
 * writer writes them (`Ledger.writeSettled`: the row deleted first, only the caller that deletes
 * it goes on). With a separate log database the row is first claimed for this process (instance
 * id swapped, so no other node touches it while this one lives) and the log row written there
 * unless the request's consume log already exists (the dead writer got that far). Returns false
 * when another node finished it first.
 */
async function completeSettled(deps: LedgerDependencies, row: LedgerRow): Promise<boolean> {
  const { database, logDatabase } = deps;
  const pending = pendingFromRow(row);
  if (logDatabase !== database) {
    const claimed = await database.db
      .updateTable('reservations')
      .set({ instance_id: deps.instanceId })
      .where('id', '=', row.id)
      .where('instance_id', '=', row.instance_id)
      .where('state', '=', 'settled')
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return false;
    try {
      if (pending.log)
        await insertMissingConsumeLogs(logDatabase, [{ log: pending.log, at: pending.at }], true);
    } catch (error) {
      // Hand the row back to its dead owner so the next pass (any node) tries again.
      await database.db
        .updateTable('reservations')
        .set({ instance_id: row.instance_id })
        .where('id', '=', row.id)
        .execute()
        .catch(() => undefined);
      throw error;
    }
  }
  return (await ledgerOf(database).writeSettled([pending], logDatabase === database)) > 0;
}

/**
 * Reconciles the ledger rows of dead processes (row in node_instances gone, or heartbeat older
 * than `deadAfterMs`; see instance-liveness.ts): 'reserved' rows are settled from their consume
 * log or refunded, 'settled' rows get their log row and counters, each exactly once even when two
 * nodes race. Rows of live processes are never touched. Node rows of dead processes are removed.
 * A row that fails is logged and left for the next pass. `nextCheckAt` says when a process that
 * still looks alive but holds rows would count as dead.
 */
export async function reconcileReservations(
  deps: LedgerDependencies,
  now = Date.now(),
): Promise<ReconcileResult & { nextCheckAt?: number }> {
  const { database } = deps;
  const rows = await database.db.selectFrom('reservations').select('instance_id').distinct().execute();
  const owners = rows.map((row) => row.instance_id ?? '');
  const beats = await database.db.selectFrom('node_instances').select(['id', 'heartbeat_at']).execute();
  const dead = deadInstanceIds(owners, beats, now, deps.deadAfterMs, deps.instanceId);
  const result: ReconcileResult = { refunded: 0, settled: 0, completed: 0 };
  if (dead.length > 0) {
    const deadRows = await database.db
      .selectFrom('reservations')
      .selectAll()
      .where('instance_id', 'in', dead)
      .orderBy('created_at')
      .execute();
    for (const row of deadRows) {
      try {
        if (row.state === 'settled') {
          if (await completeSettled(deps, row)) result.completed += 1;
        } else {
          const outcome = await reconcileReserved(deps, row);
          if (outcome) result[outcome] += 1;
        }
      } catch (error) {
        deps.log.error({ err: error, reservation: row.id }, 'reservation reconciliation failed');
      }
    }
  }
  await database.db
    .deleteFrom('node_instances')
    .where('heartbeat_at', '<', now - deps.deadAfterMs)
    .where('id', '!=', deps.instanceId)
    .execute();
  if (result.refunded + result.settled + result.completed > 0) {
    deps.log.warn(result, 'reconciled reservations left open by dead processes');
  }
  const live = owners.filter((owner) => !dead.includes(owner));
  return { ...result, nextCheckAt: nextDeathCheck(live, beats, now, deps.deadAfterMs, deps.instanceId) };
}

export type SweepDependencies = Omit<LedgerDependencies, 'formatQuota'> & { options: OptionStore };

export function withFormat(deps: SweepDependencies): LedgerDependencies {
  const { options } = deps;
  const formatQuota = (quota: number) =>
    formatQuotaText(quota, options.getBoolean('DisplayInCurrencyEnabled'), options.getNumber('QuotaPerUnit'));
  return { ...deps, formatQuota };
}

/**
 * Start-up reconciliation on the master: the rows of processes that are dead now (this process's
 * previous incarnation had another id; a process killed moments ago still looks alive and is left
 * to the sweep). A failure is logged, never fatal.
 */
export async function reconcileOnStart(deps: SweepDependencies): Promise<ReconcileResult | null> {
  try {
    return await reconcileReservations(withFormat(deps));
  } catch (error) {
    deps.log.error({ err: error }, 'reservation reconciliation failed; the sweep tries again');
    return null;
  }
}

/**
 * The master's periodic sweep: every `sweepMs`, and also right when a process holding rows will
 * count as dead, so a killed node's reservations are closed within about `deadAfterMs` of its
 * last heartbeat. Returns a function that stops it (waiting for a running pass).
 */
export function startLedgerSweeper(deps: SweepDependencies, sweepMs: number): () => Promise<void> {
  const ledger = withFormat(deps);
  return repeatPasses(
    sweepMs,
    async () => {
      const { nextCheckAt } = await reconcileReservations(ledger);
      return nextCheckAt === undefined ? sweepMs : nextCheckAt - Date.now();
    },
    (error) => deps.log.error({ err: error }, 'reservation sweep failed'),
  );
}

/**
 * Runs `pass` `everyMs` after the previous one ended (or sooner, when a pass answers a shorter
 * wait), never two at once; a failed pass goes to `onError`. Returns a function that stops it,
 * waiting for a running pass.
 */
export function repeatPasses(
  everyMs: number,
  pass: () => Promise<number | undefined>,
  onError: (error: unknown) => void,
): () => Promise<void> {
  let running: Promise<void> | null = null;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  const schedule = (delay: number) => {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(run, Math.max(10, delay));
    timer.unref();
  };
  const run = () => {
    if (running || stopped) return;
    running = pass()
      .then(
        (soon) => schedule(Math.min(everyMs, soon ?? everyMs)),
        (error: unknown) => {
          onError(error);
          schedule(everyMs);
        },
      )
      .finally(() => {
        running = null;
      });
  };
  schedule(everyMs);
  return async () => {
    stopped = true;
    clearTimeout(timer);
    if (running) await running;
  };
}

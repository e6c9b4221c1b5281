import { formatQuota as formatQuotaText, LogType } from '@switchyard/shared';
import type { FastifyBaseLogger } from 'fastify';
import { type Insertable, type Kysely, type Selectable, type SqlBool, sql } from 'kysely';
import type { DatabaseHandle } from '../db/database.ts';
import { escapeLike } from '../db/like-pattern.ts';
import type { Database, LogTable, ReservationTable } from '../db/schema.ts';
import type { OptionStore } from '../options/option-store.ts';
import { chargeAgainstReservation, credit, type Payer } from './balance-moves.ts';

/** What reconciliation needs: the main database, where log rows go, and how to show quota. */
export interface LedgerDependencies {
  database: DatabaseHandle;
  /** The logs database (the main one unless LOG_SQL_DSN is set). */
  logDatabase: DatabaseHandle;
  formatQuota: (quota: number) => string;
  log: FastifyBaseLogger;
}

/** How many open reservations one pass closed, by outcome. */
export interface ReconcileResult {
  refunded: number;
  settled: number;
}

type LedgerRow = Selectable<ReservationTable>;

/** The consume log row a reservation's request wrote, if any (quota charged and channel). */
async function findConsumeLog(logs: Kysely<Database>, row: LedgerRow) {
  if (!row.request_id) return undefined;
  const candidates = await logs
    .selectFrom('logs')
    .select(['quota', 'channel_id', 'other'])
    .where('type', '=', LogType.Consume)
    .where('user_id', '=', row.user_id)
    .where('created_at', '>=', Math.floor(Number(row.created_at) / 1000) - 1)
    .where(sql<SqlBool>`other like ${`%"request_id":"${escapeLike(row.request_id)}"%`} escape '!'`)
    .execute();
  return candidates.find((log) => {
    try {
      return (JSON.parse(log.other ?? '{}') as { request_id?: unknown }).request_id === row.request_id;
    } catch {
      return false;
    }
  });
}

/**
 * Closes one open reservation: in one transaction, deletes its ledger row (only the caller that
 * deletes it goes on) and either settles it at the quota its consume log recorded or refunds it to
 * user and token, and writes a system log row (in the same transaction when logs share the main
 * database). Returns the outcome, or null when another node closed it first.
 */
async function reconcileOne(
  deps: LedgerDependencies,
  row: LedgerRow,
): Promise<'refunded' | 'settled' | null> {
  const { database, logDatabase, formatQuota } = deps;
  const consume = await findConsumeLog(logDatabase.db, row);
  const sharedLogs = logDatabase === database;
  const amount = Number(row.amount);
  const outcome = await database.db.transaction().execute(async (trx) => {
    const deleted = await trx.deleteFrom('reservations').where('id', '=', row.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) === 0) return null;
    const payer: Payer = {
      userId: row.user_id,
      tokenId: row.token_id,
      tokenUnlimited: row.token_limited === 0,
    };
    let content: string;
    let other: Record<string, unknown>;
    if (consume) {
      const charged = await chargeAgainstReservation(
        trx,
        database.kind,
        payer,
        amount,
        Math.max(0, Math.trunc(Number(consume.quota))),
        consume.channel_id,
      );
      content = `预扣额度对账：请求 ${row.request_id} 已记录消费，按消费日志结算 ${formatQuota(charged)}（预扣 ${formatQuota(amount)}）`;
      other = { reconciled: 'settled', charged_quota: charged };
    } else {
      await credit(trx, payer, amount);
      content = `预扣额度对账：请求 ${row.request_id || row.id} 在服务退出前未结算，退还预扣额度 ${formatQuota(amount)}`;
      other = { reconciled: 'refunded' };
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
      created_at: Math.floor(Date.now() / 1000),
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
  if (!sharedLogs) await logDatabase.db.insertInto('logs').values(outcome.logRow).execute();
  return outcome.result;
}

/**
 * Reconciles every reservation opened before `before` (milliseconds) that is still open: those a
 * process left behind when it died (kill -9, crash, power loss). Each is settled from its consume
 * log when one was written, otherwise refunded, exactly once (see reconcileOne). A row that
 * fails is logged and left for the next pass.
 */
export async function reconcileReservations(
  deps: LedgerDependencies,
  before: number,
): Promise<ReconcileResult> {
  const rows = await deps.database.db
    .selectFrom('reservations')
    .selectAll()
    .where('created_at', '<', before)
    .orderBy('created_at')
    .execute();
  const result: ReconcileResult = { refunded: 0, settled: 0 };
  for (const row of rows) {
    try {
      const outcome = await reconcileOne(deps, row);
      if (outcome) result[outcome] += 1;
    } catch (error) {
      deps.log.error({ err: error, reservation: row.id }, 'reservation reconciliation failed');
    }
  }
  if (result.refunded + result.settled > 0) {
    deps.log.warn(result, 'reconciled reservations left open by a previous process');
  }
  return result;
}

/**
 * Start-up reconciliation on the master: every reservation opened before now is one no living
 * process of this node holds. A failure is logged, never fatal (the rows wait for the next start).
 */
export async function reconcileOnStart(
  deps: Omit<LedgerDependencies, 'formatQuota'> & { options: OptionStore },
): Promise<ReconcileResult | null> {
  const { options } = deps;
  const formatQuota = (quota: number) =>
    formatQuotaText(quota, options.getBoolean('DisplayInCurrencyEnabled'), options.getNumber('QuotaPerUnit'));
  try {
    return await reconcileReservations({ ...deps, formatQuota }, Date.now());
  } catch (error) {
    deps.log.error(
      { err: error },
      'reservation reconciliation failed; open reservations wait for the next start',
    );
    return null;
  }
}

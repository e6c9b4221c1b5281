import { LogType, TopUpStatus } from '@switchyard/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../../app-services.ts';
import type { TopUpRepository, TopUpRow } from '../../db/repositories/top-up-repository.ts';
import { describeQuota } from '../auth/register-service.ts';
import { verifyEpaySignature } from './epay-signature.ts';
import { isOnlineTopUpEnabled, parseMoneyCents, toCents } from './top-up-pricing.ts';
import { nowSeconds } from './top-up-service.ts';

type Services = Pick<AppServices, 'database' | 'users' | 'logs' | 'options'>;
type Log = Pick<FastifyBaseLogger, 'warn' | 'info'>;

/** The body Epay expects: `success` stops its retries, anything else makes it retry later. */
export type NotifyAnswer = 'success' | 'fail';

/** Epay's trade status of a paid order. */
const TRADE_SUCCESS = 'TRADE_SUCCESS';

/** Keeps only single string values; null when any parameter is repeated or structured. */
export function toStringParams(raw: Record<string, unknown>): Record<string, string> | null {
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (typeof value !== 'string') return null;
    params[name] = value;
  }
  return params;
}

/**
 * Handles one delivery of Epay's payment notification. Credits an order only when the
 * signature is valid under EpayKey, `pid` is our EpayId, the trade succeeded, the order exists
 * and the paid `money` equals the order's sum to the cent (the reference checked only the
 * signature and status). Crediting happens exactly once however often and on however many nodes
 * the notification arrives: one transaction runs the conditional
 * `UPDATE top_ups SET status='success' ... WHERE trade_no = ? AND status = 'pending'` and, only
 * when it matched, adds `amount × QuotaPerUnit` to the user. An order already completed answers
 * `success` so Epay stops retrying.
 */
export async function handleEpayNotification(
  services: Services,
  topUps: TopUpRepository,
  raw: Record<string, unknown>,
  log: Log,
  now = nowSeconds(),
): Promise<NotifyAnswer> {
  const { options } = services;
  if (!isOnlineTopUpEnabled(options)) {
    log.warn('epay notification refused: online top-up is not configured');
    return 'fail';
  }
  const params = toStringParams(raw);
  if (!params || !verifyEpaySignature(params, options.get('EpayKey'))) {
    log.warn({ tradeNo: params?.out_trade_no }, 'epay notification refused: bad signature');
    return 'fail';
  }
  if (params.pid !== options.get('EpayId').trim()) {
    log.warn({ tradeNo: params.out_trade_no }, 'epay notification refused: pid is not EpayId');
    return 'fail';
  }
  // A signed notification about an unpaid trade is valid; there is nothing to credit.
  if (params.trade_status !== TRADE_SUCCESS) return 'success';
  const tradeNo = params.out_trade_no ?? '';
  const order = tradeNo === '' ? undefined : await topUps.findByTradeNo(tradeNo);
  if (!order) {
    log.warn({ tradeNo }, 'epay notification refused: unknown order');
    return 'fail';
  }
  const paidCents = parseMoneyCents(params.money ?? '');
  if (paidCents === null || paidCents !== toCents(order.money)) {
    log.warn(
      { tradeNo, paid: params.money, expected: order.money },
      'epay notification refused: paid money differs from the order',
    );
    return 'fail';
  }
  if (order.status === TopUpStatus.Success) return 'success';
  if (order.status !== TopUpStatus.Pending) return 'fail';
  const credited = await creditOrder(services, topUps, order, now);
  if (credited === null) {
    // Another delivery won the race; answer as it did once its transaction committed.
    const latest = await topUps.findByTradeNo(tradeNo);
    return latest?.status === TopUpStatus.Success ? 'success' : 'fail';
  }
  log.info({ tradeNo, userId: order.user_id, quota: credited }, 'epay top-up credited');
  await writeTopUpLog(services, order, credited).catch((error: unknown) =>
    log.warn({ err: error, tradeNo }, 'top-up log write failed'),
  );
  return 'success';
}

/** Completes the order and credits its quota in one transaction; null if it was no longer pending. */
async function creditOrder(
  services: Services,
  topUps: TopUpRepository,
  order: TopUpRow,
  now: number,
): Promise<number | null> {
  const quota = Math.round(order.amount * (services.options.getNumber('QuotaPerUnit') || 500_000));
  return services.database.db.transaction().execute(async (trx) => {
    if (!(await topUps.markSucceeded(order.trade_no, now, trx))) return null;
    // Throwing rolls the completion back, so a later delivery can still credit the order.
    if (!(await services.users.addQuota(order.user_id, quota, trx))) {
      throw new Error(`top-up order ${order.trade_no} belongs to a missing user ${order.user_id}`);
    }
    return quota;
  });
}

async function writeTopUpLog(services: Services, order: TopUpRow, quota: number): Promise<void> {
  const user = await services.users.findById(order.user_id);
  await services.logs.insert({
    user_id: order.user_id,
    username: user?.username ?? '',
    type: LogType.TopUp,
    quota,
    content: `使用在线充值成功，充值金额: ${describeQuota(quota, services)}，支付金额：${order.money.toFixed(2)}`,
  });
}

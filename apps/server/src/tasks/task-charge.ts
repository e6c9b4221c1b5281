import { formatQuota, LogType } from '@switchyard/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../app-services.ts';
import type { Reservation } from '../billing/ledger/billing-service.ts';
import type { NewLog } from '../db/repositories/log-repository.ts';
import type { TokenRow } from '../db/repositories/token-repository.ts';
import { priceTablesOf } from '../relay/stages/price-request.ts';
import { settleAndRecord } from '../relay/stages/record-charge.ts';
import type { CachedUser } from '../relay/token-cache.ts';
import { type TaskPrice, taskPriceOf } from './task-price.ts';

/** Who submits a task, and the request facts its log row needs. */
export interface TaskCaller {
  user: CachedUser;
  token: TokenRow;
  group: string;
  ip: string;
  requestId: string;
  startedAt: number;
}

function acceptsUnpricedModels(user: CachedUser): boolean {
  try {
    return (
      (JSON.parse(user.setting || '{}') as { accept_unset_model_ratio_model?: unknown })
        .accept_unset_model_ratio_model === true
    );
  } catch {
    return false;
  }
}

/** The fixed price of the model for the caller, or undefined when it has none and must be refused. */
export function priceTask(services: AppServices, caller: TaskCaller, model: string): TaskPrice | undefined {
  const { options } = services;
  const allowUnpriced = options.getBoolean('SelfUseModeEnabled') || acceptsUnpricedModels(caller.user);
  return taskPriceOf(
    priceTablesOf(options),
    model,
    caller.group,
    allowUnpriced,
    options.getNumber('QuotaPerUnit'),
  );
}

/** The refusal message for an unpriced model (the reference's wording). */
export function unpricedMessage(caller: TaskCaller, model: string): string {
  const advice = caller.user.id === 1 ? '请设置或开始自用模式' : '请联系管理员设置';
  return `模型 ${model} 倍率或价格未配置，${advice}`;
}

/**
 * Reserves the task's price before the upstream call (conditional decrements of user and token,
 * so concurrent submits never overdraw); throws the billing quota error when short. The ledger
 * row carries the request id (reconciliation names it in its log).
 */
export function reserveTaskQuota(
  services: AppServices,
  caller: TaskCaller,
  amount: number,
): Promise<Reservation> {
  return services.relay.billing.reserve(
    { userId: caller.user.id, tokenId: caller.token.id, tokenUnlimited: caller.token.unlimited_quota },
    amount,
    caller.requestId,
  );
}

/**
 * Charges an accepted submit: settles the reservation at the price (the used quota and request
 * counts of user, token and channel follow in the settlement writer's batch, with the consume log
 * `模型固定价格 …，分组倍率 …，操作 <action>，ID <task id>`), then the dashboard data and the
 * low-quota warning. A settlement the database refused is retried (ADR-26) and does not fail the
 * submit: the task exists upstream and is charged once the retry writes it (0 is returned then).
 */
export async function chargeTask(
  services: AppServices,
  caller: TaskCaller,
  reservation: Reservation,
  price: TaskPrice,
  channelId: number,
  action: string,
  taskId: string,
  log: Pick<FastifyBaseLogger, 'error'>,
): Promise<number> {
  const { relay, options } = services;
  const buildLog = options.getBoolean('LogConsumeEnabled')
    ? (charged: number): NewLog => ({
        type: LogType.Consume,
        user_id: caller.user.id,
        username: caller.user.username,
        token_id: caller.token.id,
        token_name: caller.token.name,
        model_name: price.model,
        quota: charged,
        channel_id: channelId,
        group: caller.group,
        ip: caller.ip,
        use_time: Math.max(0, Math.round((performance.now() - caller.startedAt) / 1000)),
        content: `模型固定价格 ${price.modelPrice.toFixed(2)}，分组倍率 ${price.groupRatio.toFixed(2)}，操作 ${action}${taskId ? `，ID ${taskId}` : ''}`,
        other: JSON.stringify({
          model_price: price.modelPrice,
          group_ratio: price.groupRatio,
          request_id: caller.requestId,
          admin_info: { use_channel: [String(channelId)] },
        }),
      })
    : undefined;
  return settleAndRecord(
    relay,
    options,
    log,
    { reservation, cost: price.quota, channelId, buildLog },
    {
      userId: caller.user.id,
      username: caller.user.username,
      modelName: price.model,
      tokenUsed: 0,
    },
  );
}

/** Writes the system log row of a task refund (`<what> <task id>，补偿 $x`). */
export async function logTaskRefund(
  services: AppServices,
  row: { user_id: number; token_id: number; channel_id: number; quota: number },
  content: string,
): Promise<void> {
  const { options, users, relay } = services;
  const user = await users.findById(row.user_id);
  const amount = formatQuota(
    Number(row.quota),
    options.getBoolean('DisplayInCurrencyEnabled'),
    options.getNumber('QuotaPerUnit'),
  );
  relay.logWriter.write({
    type: LogType.System,
    user_id: row.user_id,
    username: user?.username ?? '',
    token_id: row.token_id,
    channel_id: row.channel_id,
    quota: Number(row.quota),
    content: `${content}，补偿 ${amount}`,
  });
}

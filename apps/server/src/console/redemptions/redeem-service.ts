import { LogType, RedemptionStatus } from '@switchyard/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from '../../app-services.ts';
import type { RedemptionRepository, RedemptionRow } from '../../db/repositories/redemption-repository.ts';
import type { UserRow } from '../../db/repositories/user-repository.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { describeQuota } from '../auth/register-service.ts';
import { normalizeRedemptionKey } from './redemption-rules.ts';
import { nowSeconds } from './redemption-service.ts';

type Services = Pick<AppServices, 'database' | 'users' | 'logs' | 'options'>;

const INVALID_CODE = '兑换失败，无效的兑换码';

/**
 * Redeems a code for a user and returns the quota added. Exactly once per code without locks in
 * the process: one transaction runs the conditional UPDATE that claims the code
 * (`status = 1 AND deleted_at IS NULL` → status 3, redeemer, time) and, only when it matched a
 * row, adds the code's quota to the user. Concurrent attempts — on this node or others — wait on
 * the row lock and then match nothing; they read the row afterwards only to say why.
 */
export async function redeemCode(
  services: Services,
  redemptions: RedemptionRepository,
  user: UserRow,
  rawKey: string,
  log: Pick<FastifyBaseLogger, 'warn'>,
  now = nowSeconds(),
): Promise<number> {
  if (rawKey.trim() === '') throw invalidRequest('未提供兑换码');
  const key = normalizeRedemptionKey(rawKey);
  if (key === null) throw invalidRequest(INVALID_CODE);
  const { database, users, logs } = services;
  const claimed = await database.db.transaction().execute(async (trx): Promise<RedemptionRow | null> => {
    if (!(await redemptions.markUsed(key, user.id, now, trx))) return null;
    const row = await redemptions.findByKey(key, trx);
    // Throwing rolls the claim back: the code stays unused if the quota cannot be credited.
    if (!row) throw new Error('claimed redemption code vanished inside its transaction');
    if (!(await users.addQuota(user.id, row.quota, trx))) throw invalidRequest('兑换失败，用户不存在');
    return row;
  });
  if (!claimed) {
    const row = await redemptions.findByKey(key);
    if (!row || row.deleted_at !== null) throw invalidRequest(INVALID_CODE);
    if (row.status === RedemptionStatus.Disabled) throw invalidRequest('兑换失败，该兑换码已被禁用');
    throw invalidRequest('兑换失败，该兑换码已被使用');
  }
  // The quota is credited: a failing log write must not make the redemption look failed.
  await logs
    .insert({
      user_id: user.id,
      username: user.username,
      type: LogType.TopUp,
      quota: claimed.quota,
      content: `通过兑换码充值 ${describeQuota(claimed.quota, services)}，兑换码ID ${claimed.id}`,
    })
    .catch((error: unknown) =>
      log.warn({ err: error, redemptionId: claimed.id }, 'redemption log write failed'),
    );
  return claimed.quota;
}

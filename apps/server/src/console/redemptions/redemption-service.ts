import { RedemptionStatus, type RedemptionUpdateBody } from '@switchyard/shared';
import type { AppServices } from '../../app-services.ts';
import type { RedemptionRepository, RedemptionRow } from '../../db/repositories/redemption-repository.ts';
import type { UserRow } from '../../db/repositories/user-repository.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import {
  checkRedemptionCount,
  checkRedemptionName,
  checkRedemptionQuota,
  generateRedemptionKey,
  nameForNewCode,
} from './redemption-rules.ts';

type Services = Pick<AppServices, 'options'>;

/** Message for an id that is unknown or deleted. */
export const REDEMPTION_NOT_FOUND = '兑换码不存在';

/** Unix seconds now. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/**
 * Creates `count` codes with the same name and quota, all or none, and returns their keys.
 * The creator is recorded as `user_id`.
 */
export async function createRedemptions(
  services: Services,
  redemptions: RedemptionRepository,
  admin: UserRow,
  body: { name?: string; quota: number; count?: number },
  now = nowSeconds(),
): Promise<string[]> {
  const quota = checkRedemptionQuota(body.quota);
  const name = nameForNewCode(body.name, quota, services.options);
  const count = checkRedemptionCount(body.count ?? 1);
  // 128-bit keys do not collide in practice; retry with fresh ones all the same.
  for (let attempt = 1; ; attempt++) {
    const keys = Array.from({ length: count }, generateRedemptionKey);
    try {
      await redemptions.createMany(
        keys.map((key) => ({ user_id: admin.id, key, name, quota, created_time: now })),
      );
      return keys;
    } catch (error) {
      if (attempt >= 3 || !isUniqueViolation(error)) throw error;
    }
  }
}

/** Why a code that exists could not be edited or toggled. */
function refusalFor(row: RedemptionRow | undefined, action: 'edit' | 'status'): Error {
  if (!row) return invalidRequest(REDEMPTION_NOT_FOUND);
  if (row.status === RedemptionStatus.Used) {
    return invalidRequest(action === 'edit' ? '兑换码已被使用，无法编辑' : '兑换码已被使用，无法启用或禁用');
  }
  return invalidRequest('兑换码已禁用，请先启用后再编辑');
}

/** Changes name and/or quota; only an unused (status 1) code can be edited. Returns the new row. */
export async function updateRedemption(
  redemptions: RedemptionRepository,
  body: Pick<RedemptionUpdateBody, 'id' | 'name' | 'quota'>,
): Promise<RedemptionRow> {
  const changes: { name?: string; quota?: number } = {};
  if (body.name !== undefined) changes.name = checkRedemptionName(body.name);
  if (body.quota !== undefined) changes.quota = checkRedemptionQuota(body.quota);
  if (!(await redemptions.updateIfUnused(body.id, changes))) {
    throw refusalFor(await redemptions.findById(body.id), 'edit');
  }
  const row = await redemptions.findById(body.id);
  if (!row) throw invalidRequest(REDEMPTION_NOT_FOUND);
  return row;
}

/** Enables (1) or disables (2) a code; a used code keeps status 3. Returns the new row. */
export async function setRedemptionStatus(
  redemptions: RedemptionRepository,
  id: number,
  status: number | undefined,
): Promise<RedemptionRow> {
  if (status !== RedemptionStatus.Unused && status !== RedemptionStatus.Disabled) {
    throw invalidRequest('无效的兑换码状态，只能是 1（启用）或 2（禁用）');
  }
  if (!(await redemptions.setStatusIfNotUsed(id, status))) {
    throw refusalFor(await redemptions.findById(id), 'status');
  }
  const row = await redemptions.findById(id);
  if (!row) throw invalidRequest(REDEMPTION_NOT_FOUND);
  return row;
}

/** Soft-deletes a code (used ones too: the redeemer's balance and log are unaffected). */
export async function deleteRedemption(
  redemptions: RedemptionRepository,
  id: number,
  now = nowSeconds(),
): Promise<void> {
  if (!(await redemptions.softDelete(id, now))) throw invalidRequest(REDEMPTION_NOT_FOUND);
}

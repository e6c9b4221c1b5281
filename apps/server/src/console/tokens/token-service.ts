import {
  TOKEN_CREATE_MAX_COUNT,
  type TokenCreateBody,
  type TokenCreated,
  TokenStatus,
  type TokenUpdateBody,
} from '@switchyard/shared';
import type { AppServices } from '../../app-services.ts';
import type { NewToken, TokenChanges, TokenRow } from '../../db/repositories/token-repository.ts';
import type { UserRow } from '../../db/repositories/user-repository.ts';
import { isUniqueViolation } from '../../db/unique-violation.ts';
import { invalidRequest } from '../../errors/gateway-error.ts';
import { fullTokenKey, generateTokenKey, tokenNameSuffix } from './token-key.ts';
import {
  assertCanEnable,
  BATCH_NAME_RESERVE,
  checkExpiredTime,
  checkRemainQuota,
  checkTokenGroup,
  checkTokenName,
  normalizeAllowIps,
  normalizeModelLimits,
  statusAfterEdit,
} from './token-rules.ts';

type TokenServices = Pick<AppServices, 'tokens' | 'options' | 'bus'>;

/** Unix seconds now. */
export const nowSeconds = (): number => Math.floor(Date.now() / 1000);

/** Message of a token that is not the caller's, is deleted or never existed (never say which). */
export const TOKEN_NOT_FOUND = '令牌不存在';

/** The result of a create call: the new tokens with FULL keys, and whether `count` was capped. */
export interface CreatedTokens {
  tokens: TokenCreated[];
  requested: number;
  capped: boolean;
}

/**
 * Creates `count` tokens (default 1, capped at 100) for the user, all or none. The first takes
 * the name as given; the others get `-` plus 6 random alphanumerics. Keys are 48 random
 * alphanumerics; the reply is the only time the full keys travel without an explicit request.
 */
export async function createTokens(
  services: TokenServices,
  user: UserRow,
  body: TokenCreateBody,
  now = nowSeconds(),
): Promise<CreatedTokens> {
  const requested = body.count ?? 1;
  if (requested < 1) throw invalidRequest(`创建数量必须是 1 到 ${TOKEN_CREATE_MAX_COUNT} 之间的整数`);
  const count = Math.min(requested, TOKEN_CREATE_MAX_COUNT);
  const name = checkTokenName(body.name, count > 1 ? BATCH_NAME_RESERVE : 0);
  const fields = {
    status: TokenStatus.Enabled,
    remain_quota: checkRemainQuota(body.remain_quota ?? 0),
    unlimited_quota: body.unlimited_quota ?? false,
    expired_time: checkExpiredTime(body.expired_time ?? -1, now),
    model_limits_enabled: body.model_limits_enabled ?? false,
    model_limits: normalizeModelLimits(body.model_limits ?? ''),
    allow_ips: normalizeAllowIps(body.allow_ips ?? ''),
    group: checkTokenGroup(body.group ?? '', user.group, services.options),
  };
  const names = Array.from({ length: count }, (_, index) => (index === 0 ? name : name + tokenNameSuffix()));
  const draft = (): NewToken[] =>
    names.map((tokenName) => ({ ...fields, user_id: user.id, name: tokenName, key: generateTokenKey() }));

  // A key collision (62^48 space) is practically impossible; retry with fresh keys all the same.
  for (let attempt = 1; ; attempt++) {
    const drafts = draft();
    try {
      const ids = await services.tokens.createMany(drafts);
      for (const id of ids) services.bus.publish('tokens', String(id));
      return {
        tokens: ids.map((id, index) => ({
          id,
          name: drafts[index]!.name,
          key: fullTokenKey(drafts[index]!.key),
        })),
        requested,
        capped: requested > count,
      };
    } catch (error) {
      if (!isUniqueViolation(error) || attempt >= 3) throw error;
    }
  }
}

/**
 * A full update: every given field is validated and written; `status` is ignored (status moves
 * only through a status-only update), except that an expired (3) or exhausted (4) token whose
 * new expiry and quota allow it becomes enabled again.
 */
export async function updateToken(
  services: TokenServices,
  user: UserRow,
  body: TokenUpdateBody,
  now = nowSeconds(),
): Promise<TokenRow> {
  const token = await services.tokens.findOwned(user.id, body.id);
  if (!token) throw invalidRequest(TOKEN_NOT_FOUND);
  const changes: TokenChanges = {};
  if (body.name !== undefined) changes.name = checkTokenName(body.name);
  if (body.remain_quota !== undefined) changes.remain_quota = checkRemainQuota(body.remain_quota);
  if (body.unlimited_quota !== undefined) changes.unlimited_quota = body.unlimited_quota;
  if (body.expired_time !== undefined) {
    changes.expired_time = checkExpiredTime(body.expired_time, now, token.expired_time);
  }
  if (body.model_limits_enabled !== undefined) changes.model_limits_enabled = body.model_limits_enabled;
  if (body.model_limits !== undefined) changes.model_limits = normalizeModelLimits(body.model_limits);
  if (body.allow_ips !== undefined) changes.allow_ips = normalizeAllowIps(body.allow_ips);
  if (body.group !== undefined && body.group.trim() !== token.group) {
    // Only a changed group is checked, so a token whose group was withdrawn can still be renamed.
    changes.group = checkTokenGroup(body.group, user.group, services.options);
  }
  const status = statusAfterEdit(token.status, { ...token, ...changes }, now);
  if (status !== token.status) changes.status = status;
  return applyChanges(services, user, token, changes);
}

/** A status-only update: the user toggles between enabled (1) and disabled (2). */
export async function setTokenStatus(
  services: TokenServices,
  user: UserRow,
  id: number,
  status: number | undefined,
  now = nowSeconds(),
): Promise<TokenRow> {
  if (status !== TokenStatus.Enabled && status !== TokenStatus.Disabled) {
    throw invalidRequest('令牌状态只能设置为启用（1）或禁用（2）');
  }
  const token = await services.tokens.findOwned(user.id, id);
  if (!token) throw invalidRequest(TOKEN_NOT_FOUND);
  if (status === TokenStatus.Enabled) assertCanEnable(token, now);
  return applyChanges(services, user, token, { status });
}

async function applyChanges(
  services: TokenServices,
  user: UserRow,
  token: TokenRow,
  changes: TokenChanges,
): Promise<TokenRow> {
  if (!(await services.tokens.updateOwned(user.id, token.id, changes))) throw invalidRequest(TOKEN_NOT_FOUND);
  services.bus.publish('tokens', String(token.id));
  return (await services.tokens.findOwned(user.id, token.id)) ?? { ...token, ...changes };
}

/** Soft-deletes one of the user's tokens. */
export async function deleteToken(services: TokenServices, user: UserRow, id: number): Promise<void> {
  if (!(await services.tokens.softDeleteOwned(user.id, id))) throw invalidRequest(TOKEN_NOT_FOUND);
  services.bus.publish('tokens', String(id));
}

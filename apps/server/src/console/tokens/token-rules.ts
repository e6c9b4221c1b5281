import { isIP } from 'node:net';
import {
  TOKEN_MODEL_LIMITS_MAX_LENGTH,
  TOKEN_NAME_MAX_LENGTH,
  TOKEN_NAME_SUFFIX_LENGTH,
  TokenStatus,
} from '@switchyard/shared';
import { invalidRequest } from '../../errors/gateway-error.ts';
import type { OptionStore } from '../../options/option-store.ts';
import { usableGroupsOf } from '../groups/usable-groups.ts';

/** Largest quota a token may hold: far below 2^53 so sums with used quota stay exact. */
export const TOKEN_QUOTA_MAX = 1e15;
/**
 * Expiry times at or above this (year 5138) are refused: they are almost surely milliseconds
 * sent by mistake, and the console sends seconds.
 */
const EXPIRY_SECONDS_LIMIT = 1e11;

/** Characters a batch keeps free in the base name for `-` plus the random suffix. */
export const BATCH_NAME_RESERVE = TOKEN_NAME_SUFFIX_LENGTH + 1;

/**
 * Checks a token name: required, at most 30 characters. `reserve` characters are kept free for
 * the batch suffix, so every token of a batch respects the limit and can be saved again unchanged.
 */
export function checkTokenName(name: string | undefined, reserve = 0): string {
  const value = (name ?? '').trim();
  if (value === '') throw invalidRequest('令牌名称不能为空');
  const limit = TOKEN_NAME_MAX_LENGTH - reserve;
  if ([...value].length > limit) {
    throw invalidRequest(
      reserve === 0
        ? '令牌名称过长'
        : `令牌名称过长：批量创建时名称最多 ${limit} 个字符（需为随机后缀留出 ${BATCH_NAME_RESERVE} 个字符）`,
    );
  }
  return value;
}

/** Checks a remaining quota: an integer from 0 to TOKEN_QUOTA_MAX. */
export function checkRemainQuota(value: number): number {
  if (value < 0) throw invalidRequest('额度不能为负数');
  if (value > TOKEN_QUOTA_MAX) throw invalidRequest('额度过大');
  return value;
}

/**
 * Checks an expiry: -1 (never) or a Unix time in seconds after `now`. `unchanged` is the stored
 * value on update: resending it (the console sends the whole token) is always accepted.
 */
export function checkExpiredTime(value: number, now: number, unchanged?: number): number {
  if (value === -1 || value === unchanged) return value;
  if (value <= 0 || value >= EXPIRY_SECONDS_LIMIT) throw invalidRequest('过期时间格式错误！');
  if (value <= now) throw invalidRequest('过期时间不能早于当前时间');
  return value;
}

/** Trims, drops empty entries and deduplicates a comma-separated model list. */
export function normalizeModelLimits(text: string): string {
  const models = [
    ...new Set(
      text
        .split(',')
        .map((model) => model.trim())
        .filter(Boolean),
    ),
  ];
  const joined = models.join(',');
  if (joined.length > TOKEN_MODEL_LIMITS_MAX_LENGTH) {
    throw invalidRequest(`模型限制列表过长，最多 ${TOKEN_MODEL_LIMITS_MAX_LENGTH} 个字符`);
  }
  return joined;
}

/** True for an IPv4/IPv6 address or a CIDR range (`10.0.0.0/8`, `2001:db8::/32`). */
export function isIpOrCidr(value: string): boolean {
  const slash = value.indexOf('/');
  if (slash < 0) return isIP(value) !== 0;
  const version = isIP(value.slice(0, slash));
  const prefix = value.slice(slash + 1);
  if (version === 0 || !/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (version === 4 ? 32 : 128);
}

/** Validates an IP allow list, one address or CIDR per line; blank lines are dropped, '' = unrestricted. */
export function normalizeAllowIps(text: string | null): string {
  const lines = (text ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  for (const line of lines) {
    if (!isIpOrCidr(line)) {
      const shown = line.length > 64 ? `${line.slice(0, 64)}…` : line;
      throw invalidRequest(`IP 白名单格式错误：${shown}（每行一个 IP 或 CIDR）`);
    }
  }
  return [...new Set(lines)].join('\n');
}

/** Checks a token group: '' (the user's own group) or one of the groups the user may use. */
export function checkTokenGroup(group: string, userGroup: string, options: OptionStore): string {
  const value = group.trim();
  if (value === '') return '';
  if (!(value in usableGroupsOf(options, userGroup))) throw invalidRequest('无权使用该分组');
  return value;
}

/** The state the status rules look at. */
export interface TokenLimits {
  expired_time: number;
  remain_quota: number;
  unlimited_quota: boolean;
}

export const isTokenExpired = (token: TokenLimits, now: number): boolean =>
  token.expired_time !== -1 && token.expired_time <= now;

export const isTokenExhausted = (token: TokenLimits): boolean =>
  !token.unlimited_quota && token.remain_quota <= 0;

/** Refuses to enable a token whose expiry has passed or whose quota is used up. */
export function assertCanEnable(token: TokenLimits, now: number): void {
  if (isTokenExpired(token, now)) {
    throw invalidRequest('令牌已过期，无法启用，请先修改令牌过期时间，或者设置为永不过期');
  }
  if (isTokenExhausted(token)) {
    throw invalidRequest('令牌可用额度已用尽，无法启用，请先修改令牌剩余额度，或者设置为无限额度');
  }
}

/**
 * The status after a full update. A token the gateway marked expired (3) or exhausted (4)
 * becomes enabled again once its new expiry and quota allow it (or takes the other of 3/4 when
 * only one problem was fixed); enabled and disabled tokens keep their status.
 */
export function statusAfterEdit(currentStatus: number, next: TokenLimits, now: number): number {
  if (currentStatus !== TokenStatus.Expired && currentStatus !== TokenStatus.Exhausted) return currentStatus;
  if (isTokenExpired(next, now)) return TokenStatus.Expired;
  if (isTokenExhausted(next)) return TokenStatus.Exhausted;
  return TokenStatus.Enabled;
}

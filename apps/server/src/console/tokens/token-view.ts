import type { TokenView } from '@switchyard/shared';
import type { TokenRow } from '../../db/repositories/token-repository.ts';

/**
 * The console's view of a token, for its owner only: the stored key as it is (48 characters, no
 * `sk-`; clients add the prefix), as the reference sends it. No deletion stamp.
 */
export function toTokenView(token: TokenRow): TokenView {
  return {
    id: token.id,
    user_id: token.user_id,
    name: token.name,
    key: token.key,
    status: token.status,
    created_time: token.created_time,
    accessed_time: token.accessed_time,
    expired_time: token.expired_time,
    remain_quota: token.remain_quota,
    used_quota: token.used_quota,
    unlimited_quota: token.unlimited_quota,
    model_limits_enabled: token.model_limits_enabled,
    model_limits: token.model_limits,
    allow_ips: token.allow_ips,
    group: token.group,
  };
}

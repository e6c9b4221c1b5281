import { ErrorCode } from '@switchyard/shared';
import { usableGroupsOf } from '../../console/groups/usable-groups.ts';
import { relayRefusal } from '../../errors/gateway-error.ts';
import type { OptionStore } from '../../options/option-store.ts';

const forbidden = (message: string) => relayRefusal(ErrorCode.TokenForbidden, message, 403);

/**
 * The group a call bills and routes in: the requested group (token group or playground choice)
 * when the user may use it and it still has a ratio, else the user's own group (reference §2.5).
 */
export function resolveGroup(options: OptionStore, userGroup: string, requested: string): string {
  if (requested === '' || requested === userGroup) return userGroup;
  const usable = usableGroupsOf(options, userGroup);
  if (!(requested in usable)) {
    const ratios = options.getJson<Record<string, number>>('GroupRatio') ?? {};
    if (!(requested in ratios)) throw forbidden(`分组 ${requested} 已被弃用`);
    throw forbidden(`令牌分组 ${requested} 已被禁用`);
  }
  return requested;
}

/** Token model limits: the requested (pre-mapping) name must be listed when limits are on. */
export function checkModelLimit(enabled: boolean, limits: string, model: string): void {
  if (!enabled) return;
  const allowed = limits.split(',').some((entry) => entry.trim() === model);
  if (!allowed) throw relayRefusal(ErrorCode.ModelForbidden, `该令牌无权访问模型 ${model}`, 403);
}

import type { PricingReply } from '@switchyard/shared';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../../lib/api-client';
import { i18n } from '../../../lib/i18n';
import { getSessionUser } from '../../../lib/session';

export type Pricing = Pick<PricingReply, 'data' | 'group_ratio' | 'usable_group'>;

/**
 * GET /api/pricing (public). The group maps sit beside `data`, which the api-client drops, so
 * this reads the body itself; a logged-in visitor's session selects their own groups.
 */
export async function getPricing(signal?: AbortSignal): Promise<Pricing> {
  const user = getSessionUser();
  const response = await fetch('/api/pricing', {
    credentials: 'same-origin',
    headers: { Accept: 'application/json', ...(user ? { 'New-Api-User': String(user.id) } : {}) },
    ...(signal ? { signal } : {}),
  });
  const body = (await response.json().catch(() => null)) as
    | (Partial<PricingReply> & { message?: string })
    | null;
  if (!response.ok || !body || body.success !== true) {
    const message =
      response.status === 429
        ? i18n.t('errors.tooManyRequests')
        : response.status >= 500
          ? i18n.t('errors.internal')
          : body?.message || i18n.t('errors.unknown');
    throw new ApiError(message, {
      status: response.status,
      kind: response.ok ? 'envelope' : 'http',
      handled: false,
    });
  }
  return {
    data: body.data ?? [],
    group_ratio: body.group_ratio ?? {},
    usable_group: body.usable_group ?? {},
  };
}

export function usePricingQuery() {
  const user = getSessionUser();
  return useQuery({
    queryKey: ['pricing', user?.id ?? 0],
    queryFn: ({ signal }) => getPricing(signal),
  });
}

import type { RedemptionListQuery } from './get-redemptions';

/** Query keys of the redemption feature; mutations invalidate through these. */
export const redemptionKeys = {
  all: ['redemptions'] as const,
  lists: () => [...redemptionKeys.all, 'list'] as const,
  list: (query: RedemptionListQuery) => [...redemptionKeys.lists(), query] as const,
  details: () => [...redemptionKeys.all, 'detail'] as const,
  detail: (id: number) => [...redemptionKeys.details(), id] as const,
};

import type { TokenListQuery } from './get-tokens';

/** Query keys of the token feature; mutations invalidate through these. */
export const tokenKeys = {
  all: ['tokens'] as const,
  lists: () => [...tokenKeys.all, 'list'] as const,
  list: (query: TokenListQuery) => [...tokenKeys.lists(), query] as const,
  details: () => [...tokenKeys.all, 'detail'] as const,
  detail: (id: number) => [...tokenKeys.details(), id] as const,
  usableGroups: () => [...tokenKeys.all, 'usable-groups'] as const,
  models: () => [...tokenKeys.all, 'models'] as const,
};

import type { UserListQuery } from './get-users';

/** Query keys of the user management feature; mutations invalidate through these. */
export const userKeys = {
  all: ['users'] as const,
  lists: () => [...userKeys.all, 'list'] as const,
  list: (query: UserListQuery) => [...userKeys.lists(), query] as const,
  details: () => [...userKeys.all, 'detail'] as const,
  detail: (id: number | 'self') => [...userKeys.details(), id] as const,
  groups: () => [...userKeys.all, 'groups'] as const,
};

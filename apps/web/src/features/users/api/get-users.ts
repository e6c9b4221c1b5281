import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';
import type { ManagedUser, UserPage } from './user-types';

export interface UserListQuery {
  page: number;
  pageSize: number;
  keyword: string;
  group: string;
}

function toPage(data: UserPage | ManagedUser[] | null, query: UserListQuery): UserPage {
  // Older servers answered a bare array; keep working with them.
  if (Array.isArray(data))
    return { items: data, page: query.page, page_size: query.pageSize, total: data.length };
  return {
    items: data?.items ?? [],
    page: data?.page ?? query.page,
    page_size: data?.page_size ?? query.pageSize,
    total: data?.total ?? 0,
  };
}

/**
 * GET /api/user/?p&page_size, or GET /api/user/search?keyword&group&p&page_size when a keyword or
 * group is set. Pages count from 1.
 */
export async function getUsers(query: UserListQuery, signal?: AbortSignal): Promise<UserPage> {
  const searching = query.keyword.trim() !== '' || query.group !== '';
  const data = await apiClient.get<UserPage | ManagedUser[] | null>(
    searching ? '/api/user/search' : '/api/user/',
    {
      query: {
        ...(searching ? { keyword: query.keyword.trim(), group: query.group } : {}),
        p: query.page,
        page_size: query.pageSize,
      },
      ...(signal ? { signal } : {}),
    },
  );
  return toPage(data, query);
}

export const usersQueryOptions = (query: UserListQuery) =>
  queryOptions({
    queryKey: userKeys.list(query),
    queryFn: ({ signal }) => getUsers(query, signal),
    placeholderData: keepPreviousData,
  });

export function useUsersQuery(query: UserListQuery) {
  return useQuery(usersQueryOptions(query));
}

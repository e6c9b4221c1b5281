import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';
import type { ManagedUser } from './user-types';

/** GET /api/user/{id}, or GET /api/user/self for 'self' (the /user/edit route without id). */
export function getUser(id: number | 'self', signal?: AbortSignal): Promise<ManagedUser> {
  return apiClient.get<ManagedUser>(
    id === 'self' ? '/api/user/self' : `/api/user/${id}`,
    signal ? { signal } : {},
  );
}

export const userQueryOptions = (id: number | 'self') =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: ({ signal }) => getUser(id, signal), staleTime: 0 });

export function useUserQuery(id: number | 'self') {
  return useQuery(userQueryOptions(id));
}

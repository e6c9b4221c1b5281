import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';

/** GET /api/group/ → group names. */
export function getGroups(signal?: AbortSignal): Promise<string[]> {
  return apiClient
    .get<string[] | null>('/api/group/', signal ? { signal } : {})
    .then((groups) => groups ?? []);
}

export const groupsQueryOptions = () =>
  queryOptions({
    queryKey: userKeys.groups(),
    queryFn: ({ signal }) => getGroups(signal),
    staleTime: 5 * 60_000,
  });

export function useGroupsQuery(enabled = true) {
  return useQuery({ ...groupsQueryOptions(), enabled });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { tokenKeys } from './token-keys';

/** A usable group of the user: description and ratio. */
export interface UsableGroup {
  desc: string;
  ratio: number;
}

/** GET /api/user/self/groups → map group → {desc, ratio}. */
export function getUsableGroups(signal?: AbortSignal): Promise<Record<string, UsableGroup>> {
  return apiClient
    .get<Record<string, UsableGroup> | null>('/api/user/self/groups', signal ? { signal } : {})
    .then((groups) => groups ?? {});
}

export const usableGroupsQueryOptions = () =>
  queryOptions({
    queryKey: tokenKeys.usableGroups(),
    queryFn: ({ signal }) => getUsableGroups(signal),
    staleTime: 60_000,
  });

export function useUsableGroupsQuery() {
  return useQuery(usableGroupsQueryOptions());
}

/** GET /api/user/models → the model names the user can call (for the model limits). */
export function getUserModels(signal?: AbortSignal): Promise<string[]> {
  return apiClient
    .get<string[] | null>('/api/user/models', signal ? { signal } : {})
    .then((models) => models ?? []);
}

export function useUserModelsQuery() {
  return useQuery({
    queryKey: tokenKeys.models(),
    queryFn: ({ signal }) => getUserModels(signal),
    staleTime: 60_000,
  });
}

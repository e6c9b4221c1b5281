import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** A usable group: its description and ratio (GET /api/user/self/groups). */
export interface UsableGroup {
  desc: string;
  ratio: number;
}

export const playgroundKeys = {
  all: ['playground'] as const,
  models: () => [...playgroundKeys.all, 'models'] as const,
  groups: () => [...playgroundKeys.all, 'groups'] as const,
};

/** GET /api/user/models → the model names the user's groups can call. */
export function useUserModelsQuery() {
  return useQuery({
    queryKey: playgroundKeys.models(),
    queryFn: ({ signal }) => apiClient.get<string[]>('/api/user/models', { signal }),
  });
}

/** GET /api/user/self/groups → group → {desc, ratio}. */
export function useSelfGroupsQuery() {
  return useQuery({
    queryKey: playgroundKeys.groups(),
    queryFn: ({ signal }) => apiClient.get<Record<string, UsableGroup>>('/api/user/self/groups', { signal }),
  });
}

import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

/** GET /api/channel/models_enabled → names of models served by at least one enabled channel. */
export function getEnabledModels(signal?: AbortSignal): Promise<string[]> {
  return apiClient
    .get<string[] | null>('/api/channel/models_enabled', signal ? { signal } : {})
    .then((models) => (Array.isArray(models) ? models.filter((model) => typeof model === 'string') : []));
}

export const enabledModelsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.enabledModels(),
    queryFn: ({ signal }) => getEnabledModels(signal),
  });

export function useEnabledModelsQuery() {
  return useQuery(enabledModelsQueryOptions());
}

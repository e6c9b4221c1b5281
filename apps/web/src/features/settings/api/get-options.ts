import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

/** Option values by key (all values are strings; secrets are never sent by the server). */
export type OptionMap = Readonly<Record<string, string>>;

/** One row of GET /api/option/. */
export interface OptionEntry {
  key: string;
  value: string;
}

/** GET /api/option/ → `[{key, value}]`, turned into a map. Keys ending in Token/Secret/Key are absent. */
export async function getOptions(signal?: AbortSignal): Promise<OptionMap> {
  const entries = await apiClient.get<OptionEntry[] | null>('/api/option/', signal ? { signal } : {});
  const map: Record<string, string> = {};
  for (const entry of entries ?? []) {
    if (entry && typeof entry.key === 'string')
      map[entry.key] = entry.value == null ? '' : String(entry.value);
  }
  return map;
}

export const optionsQueryOptions = () =>
  queryOptions({
    queryKey: settingsKeys.options(),
    queryFn: ({ signal }) => getOptions(signal),
    // The page shows its own '刷新失败' message.
    meta: { silentError: true },
  });

export function useOptionsQuery() {
  return useQuery(optionsQueryOptions());
}

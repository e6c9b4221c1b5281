import { useMutation, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { settingsKeys } from './settings-keys';

/**
 * DELETE /api/log/?target_timestamp={seconds}&background=true — starts (or joins) deleting logs
 * older than the time, in batches, and answers after the first one (without `background` the
 * server waits for the end, as new-api's console needs); data = rows deleted when it answers (all
 * of them when one batch was enough). The rest is followed through clear_progress.
 */
export function clearLogs(targetTimestamp: number): Promise<number> {
  return apiClient
    .delete<number | null>('/api/log/', { query: { target_timestamp: targetTimestamp, background: 'true' } })
    .then((deleted) => Number(deleted ?? 0));
}

export function useClearLogsMutation() {
  // The caller shows failures with its own prefix.
  return useMutation({ mutationFn: clearLogs, meta: { silentError: true } });
}

/** GET /api/log/clear_progress: the latest clear on the server node. */
export interface ClearProgress {
  state: 'idle' | 'running' | 'done' | 'failed';
  target_timestamp: number;
  deleted: number;
  started_at: number;
  finished_at: number;
  message: string;
}

export function getClearProgress(signal?: AbortSignal): Promise<ClearProgress> {
  return apiClient.get<ClearProgress>('/api/log/clear_progress', signal ? { signal } : {});
}

/** The clear's progress, read again every second while it runs. */
export function useClearProgressQuery() {
  return useQuery({
    queryKey: [...settingsKeys.all, 'clear-progress'],
    queryFn: ({ signal }) => getClearProgress(signal),
    refetchInterval: (query) => (query.state.data?.state === 'running' ? 1000 : false),
    // The section shows its own message.
    meta: { silentError: true },
  });
}

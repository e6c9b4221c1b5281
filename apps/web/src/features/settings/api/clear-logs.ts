import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** DELETE /api/log/?target_timestamp={seconds} — deletes logs older than the time; data = rows deleted. */
export function clearLogs(targetTimestamp: number): Promise<number> {
  return apiClient
    .delete<number | null>('/api/log/', { query: { target_timestamp: targetTimestamp } })
    .then((deleted) => Number(deleted ?? 0));
}

export function useClearLogsMutation() {
  // The caller shows failures with its own prefix.
  return useMutation({ mutationFn: clearLogs, meta: { silentError: true } });
}

import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** DELETE /api/user/self — deactivates the own account (irreversible). */
export function deleteSelf(): Promise<unknown> {
  return apiClient.delete('/api/user/self');
}

export function useDeleteSelfMutation() {
  return useMutation({ mutationFn: deleteSelf });
}

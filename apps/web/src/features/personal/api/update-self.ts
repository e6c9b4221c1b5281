import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { personalKeys } from './personal-keys';

/** PUT /api/user/self — changes own username, display name or password (only the given fields). */
export function updateSelf(changes: {
  username?: string;
  display_name?: string;
  password?: string;
}): Promise<unknown> {
  return apiClient.put('/api/user/self', changes);
}

export function useUpdateSelfMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSelf,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalKeys.self() }),
  });
}

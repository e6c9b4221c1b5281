import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { getSessionUser, setSessionUser } from '../../../lib/session';
import { personalKeys } from './personal-keys';

export interface SelfChanges {
  username?: string;
  display_name?: string;
  password?: string;
}

/** PUT /api/user/self — changes own username, display name or password (only the given fields). */
export function updateSelf(changes: SelfChanges): Promise<unknown> {
  return apiClient.put('/api/user/self', changes);
}

/** Keeps the stored user (shown in the header) in step with a changed username or display name. */
function syncSessionUser({ username, display_name }: SelfChanges) {
  const current = getSessionUser();
  if (!current || (username === undefined && display_name === undefined)) return;
  setSessionUser({
    ...current,
    ...(username !== undefined ? { username } : {}),
    ...(display_name !== undefined ? { display_name } : {}),
  });
}

export function useUpdateSelfMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSelf,
    onSuccess: (_data, changes) => {
      syncSessionUser(changes);
      return queryClient.invalidateQueries({ queryKey: personalKeys.self() });
    },
  });
}

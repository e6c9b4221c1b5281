import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';
import type { ManageAction, UserPage } from './user-types';

export interface ManageResult {
  role: number;
  status: number;
}

/** POST /api/user/manage {id, action} → the user's new {role, status}. */
export function manageUser(id: number, action: ManageAction): Promise<ManageResult | null> {
  return apiClient.post<ManageResult | null>('/api/user/manage', { id, action });
}

/**
 * Runs a row action; the row takes the returned role and status in every cached page. A deleted
 * (deactivated) user is marked locally and the lists are refetched.
 */
export function useManageUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: ManageAction }) => manageUser(id, action),
    onSuccess: (result, { id, action }) => {
      queryClient.setQueriesData<UserPage>({ queryKey: userKeys.lists() }, (page) => {
        if (!page) return page;
        return {
          ...page,
          items: page.items.map((user) => {
            if (user.id !== id) return user;
            if (action === 'delete') return { ...user, deleted_at: new Date().toISOString() };
            return result ? { ...user, role: result.role, status: result.status } : user;
          }),
        };
      });
      if (action === 'delete') void queryClient.invalidateQueries({ queryKey: userKeys.lists() });
      void queryClient.invalidateQueries({ queryKey: userKeys.details() });
    },
  });
}

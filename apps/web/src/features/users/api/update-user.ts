import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';

export interface UpdateUserInput {
  id: number;
  username: string;
  display_name: string;
  password?: string;
  group?: string;
  quota?: number;
}

/** PUT /api/user/ (admin edit), or PUT /api/user/self when editing oneself through /user/edit. */
export function updateUser(input: UpdateUserInput, self = false): Promise<unknown> {
  if (self) {
    const { username, display_name, password } = input;
    return apiClient.put('/api/user/self', { username, display_name, ...(password ? { password } : {}) });
  }
  return apiClient.put('/api/user/', input);
}

export function useUpdateUserMutation(self = false) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateUserInput) => updateUser(input, self),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.all }),
  });
}

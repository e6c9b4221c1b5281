import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { userKeys } from './user-keys';

export interface CreateUserInput {
  username: string;
  display_name: string;
  password: string;
}

/** POST /api/user/ {username, display_name, password}. */
export function createUser(input: CreateUserInput): Promise<unknown> {
  return apiClient.post('/api/user/', input);
}

export function useCreateUserMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createUser,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userKeys.lists() }),
  });
}

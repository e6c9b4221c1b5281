import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** POST /api/user/reset {email, token} → data is the new password. */
export function confirmPasswordReset(input: { email: string; token: string }): Promise<string> {
  return apiClient.post<string>('/api/user/reset', input);
}

export function useConfirmPasswordResetMutation() {
  return useMutation({ mutationFn: confirmPasswordReset });
}

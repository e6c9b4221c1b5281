import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** GET /api/reset_password?email&turnstile — mails a reset link. */
export function requestPasswordReset(input: { email: string; turnstile: string }): Promise<unknown> {
  return apiClient.get('/api/reset_password', { query: input });
}

export function useRequestPasswordResetMutation() {
  return useMutation({ mutationFn: requestPasswordReset });
}

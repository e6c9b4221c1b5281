import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** GET /api/verification?email&turnstile — mails a verification code. */
export function sendVerificationCode(input: { email: string; turnstile: string }): Promise<unknown> {
  return apiClient.get('/api/verification', { query: input });
}

export function useSendVerificationCodeMutation() {
  return useMutation({ mutationFn: sendVerificationCode });
}

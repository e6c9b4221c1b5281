import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

export interface RegisterInput {
  username: string;
  password: string;
  password2: string;
  email?: string;
  verification_code?: string;
  aff_code?: string;
  turnstile: string;
}

/** POST /api/user/register?turnstile= {username, password, password2, email, verification_code, aff_code}. */
export function register({ turnstile, ...body }: RegisterInput): Promise<unknown> {
  return apiClient.post('/api/user/register', body, { query: { turnstile } });
}

export function useRegisterMutation() {
  return useMutation({ mutationFn: register });
}

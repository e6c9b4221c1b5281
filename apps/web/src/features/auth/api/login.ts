import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import type { LoginUser } from './auth-types';

export interface LoginInput {
  username: string;
  password: string;
  turnstile: string;
}

/** POST /api/user/login?turnstile= {username, password}; username may also be an e-mail. */
export function login({ username, password, turnstile }: LoginInput): Promise<LoginUser> {
  return apiClient.post<LoginUser>('/api/user/login', { username, password }, { query: { turnstile } });
}

export function useLoginMutation() {
  return useMutation({ mutationFn: login });
}

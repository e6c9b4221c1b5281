import { useMutation } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';

/** GET /api/user/token — (re)generates the system access token and returns it. */
export function generateAccessToken(): Promise<string> {
  return apiClient.get<string>('/api/user/token');
}

export function useGenerateAccessTokenMutation() {
  return useMutation({ mutationFn: generateAccessToken });
}

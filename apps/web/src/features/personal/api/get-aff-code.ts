import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { personalKeys } from './personal-keys';

/** GET /api/user/aff → the user's invite code (created on first request). */
export function getAffCode(signal?: AbortSignal): Promise<string> {
  return apiClient.get<string>('/api/user/aff', signal ? { signal } : {});
}

export const affCodeQueryOptions = () =>
  queryOptions({
    queryKey: personalKeys.affCode(),
    queryFn: ({ signal }) => getAffCode(signal),
    staleTime: Number.POSITIVE_INFINITY,
  });

export function useAffCodeQuery() {
  return useQuery(affCodeQueryOptions());
}

/** The shareable registration link for an invite code. */
export function inviteLink(code: string, origin: string = window.location.origin): string {
  return `${origin}/register?aff=${encodeURIComponent(code)}`;
}

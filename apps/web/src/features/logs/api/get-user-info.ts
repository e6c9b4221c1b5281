import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { logKeys } from './log-keys';

/** What the log page's user popover shows (GET /api/user/{id}, admin). */
export interface LogUserInfo {
  id: number;
  username: string;
  display_name?: string;
  group?: string;
  quota: number;
  used_quota: number;
  request_count: number;
}

export function getUserInfo(id: number, signal?: AbortSignal): Promise<LogUserInfo> {
  return apiClient.get<LogUserInfo>(`/api/user/${id}`, signal ? { signal } : {});
}

/** Loaded only when the popover opens. */
export function useUserInfoQuery(id: number, enabled: boolean) {
  return useQuery({
    queryKey: logKeys.userInfo(id),
    queryFn: ({ signal }) => getUserInfo(id, signal),
    enabled,
  });
}

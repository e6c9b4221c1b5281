import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { personalKeys } from './personal-keys';

/** The signed-in user's own row (GET /api/user/self). */
export interface SelfUser {
  id: number;
  username: string;
  display_name: string;
  role: number;
  status: number;
  email: string;
  github_id: string;
  wechat_id: string;
  telegram_id: string;
  linux_do_id: string;
  group: string;
  quota: number;
  used_quota: number;
  request_count: number;
  aff_code?: string;
  aff_count: number;
  aff_quota: number;
  aff_history_quota: number;
  inviter_id?: number;
  /** JSON text with notify_type, quota_warning_threshold, webhook_url, webhook_secret, notification_email. */
  setting?: string | Record<string, unknown> | null;
}

export function getSelf(signal?: AbortSignal): Promise<SelfUser> {
  return apiClient.get<SelfUser>('/api/user/self', signal ? { signal } : {});
}

export const selfQueryOptions = () =>
  queryOptions({ queryKey: personalKeys.self(), queryFn: ({ signal }) => getSelf(signal) });

export function useSelfQuery() {
  return useQuery(selfQueryOptions());
}

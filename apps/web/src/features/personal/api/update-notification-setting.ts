import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiClient } from '../../../lib/api-client';
import { personalKeys } from './personal-keys';

export type NotifyType = 'email' | 'webhook';

/** Body of PUT /api/user/setting. */
export interface NotificationSetting {
  notify_type: NotifyType;
  quota_warning_threshold: number;
  webhook_url?: string;
  webhook_secret?: string;
  notification_email?: string;
}

export function updateNotificationSetting(setting: NotificationSetting): Promise<unknown> {
  return apiClient.put('/api/user/setting', setting);
}

export function useUpdateNotificationSettingMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateNotificationSetting,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: personalKeys.self() }),
  });
}

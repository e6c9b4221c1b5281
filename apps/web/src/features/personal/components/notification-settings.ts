import type { NotificationSetting, NotifyType } from '../api/update-notification-setting';

/** Warning threshold presets in quota units (spec §9); their dollar labels are computed from QuotaPerUnit. */
export const QUOTA_WARNING_PRESETS = [100_000, 500_000, 1_000_000, 5_000_000] as const;
export const DEFAULT_QUOTA_WARNING_THRESHOLD = 500_000;

/** Form shape: the threshold is text so presets and free input share one AutoComplete. */
export interface NotificationFormValues {
  notify_type: NotifyType;
  quota_warning_threshold: string;
  webhook_url?: string;
  webhook_secret?: string;
  notification_email?: string;
}

/** Reads the user's `setting` (JSON text or object) into form values with defaults. */
export function parseNotificationSetting(setting: unknown): NotificationFormValues {
  let value: Record<string, unknown> = {};
  if (typeof setting === 'string' && setting.trim() !== '') {
    try {
      const parsed: unknown = JSON.parse(setting);
      if (parsed && typeof parsed === 'object') value = parsed as Record<string, unknown>;
    } catch {
      value = {};
    }
  } else if (setting && typeof setting === 'object') {
    value = setting as Record<string, unknown>;
  }
  const threshold = Number(value.quota_warning_threshold);
  return {
    notify_type: value.notify_type === 'webhook' ? 'webhook' : 'email',
    quota_warning_threshold: String(threshold > 0 ? threshold : DEFAULT_QUOTA_WARNING_THRESHOLD),
    webhook_url: typeof value.webhook_url === 'string' ? value.webhook_url : '',
    webhook_secret: typeof value.webhook_secret === 'string' ? value.webhook_secret : '',
    notification_email: typeof value.notification_email === 'string' ? value.notification_email : '',
  };
}

/** Form values → PUT /api/user/setting body. */
export function toNotificationSetting(values: NotificationFormValues): NotificationSetting {
  return {
    notify_type: values.notify_type,
    quota_warning_threshold: Number(values.quota_warning_threshold),
    webhook_url:
      values.notify_type === 'webhook' ? (values.webhook_url ?? '').trim() : (values.webhook_url ?? ''),
    webhook_secret: values.webhook_secret ?? '',
    notification_email: (values.notification_email ?? '').trim(),
  };
}

/** Webhook URLs must use https. */
export function isHttpsUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' && Boolean(url.hostname);
  } catch {
    return false;
  }
}

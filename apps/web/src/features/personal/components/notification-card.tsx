import { Button, Card, Form, Input, Radio, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { formatQuota, useQuotaDisplay } from '../../../lib/quota';
import type { SelfUser } from '../api/get-self';
import { useUpdateNotificationSettingMutation } from '../api/update-notification-setting';
import {
  isHttpsUrl,
  type NotificationFormValues,
  parseNotificationSetting,
  QUOTA_WARNING_PRESETS,
  toNotificationSetting,
} from './notification-settings';

/** Low-quota notification: e-mail or webhook (https only), threshold with presets (PUT /api/user/setting). */
export function NotificationCard({ user }: { user: Pick<SelfUser, 'setting'> }) {
  const { t } = useTranslation('personal');
  const [form] = Form.useForm<NotificationFormValues>();
  const notifyType = Form.useWatch('notify_type', form);
  const quotaDisplay = useQuotaDisplay();
  const mutation = useUpdateNotificationSettingMutation();

  const presets = QUOTA_WARNING_PRESETS.map((value) => ({
    value: String(value),
    label: `${value} (${formatQuota(value, { displayInCurrency: true, quotaPerUnit: quotaDisplay.quotaPerUnit })})`,
  }));
  const threshold = Form.useWatch('quota_warning_threshold', form);

  const onFinish = async (values: NotificationFormValues) => {
    await mutation.mutateAsync(toNotificationSetting(values));
    notify.success(t('notification.saved'));
  };

  return (
    <Card title={t('notification.title')}>
      <Form<NotificationFormValues>
        form={form}
        layout="vertical"
        initialValues={parseNotificationSetting(user.setting)}
        onFinish={(values) => onFinish(values).catch(() => undefined)}
      >
        <Form.Item name="notify_type" label={t('notification.type.label')}>
          <Radio.Group
            options={[
              { value: 'email', label: t('notification.type.email') },
              { value: 'webhook', label: t('notification.type.webhook') },
            ]}
          />
        </Form.Item>
        <Form.Item label={t('notification.threshold.label')} extra={t('notification.threshold.help')}>
          <Form.Item
            name="quota_warning_threshold"
            noStyle
            rules={[
              { required: true, message: t('notification.threshold.required') },
              {
                validator: (_rule, value: string | undefined) =>
                  value === undefined || value === '' || (Number.isFinite(Number(value)) && Number(value) > 0)
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('notification.threshold.invalid'))),
              },
            ]}
          >
            <Input
              inputMode="numeric"
              aria-label={t('notification.threshold.label')}
              placeholder={t('notification.threshold.placeholder')}
            />
          </Form.Item>
          {/* The spec's presets, always in sight beside free input. */}
          <Space wrap style={{ marginTop: 8 }} aria-label={t('notification.threshold.presets')}>
            {presets.map((preset) => (
              <Button
                key={preset.value}
                size="small"
                type={threshold === preset.value ? 'primary' : 'default'}
                onClick={() => form.setFieldValue('quota_warning_threshold', preset.value)}
              >
                {preset.label}
              </Button>
            ))}
          </Space>
        </Form.Item>
        {notifyType === 'webhook' ? (
          <>
            <Form.Item
              name="webhook_url"
              label={t('notification.webhookUrl.label')}
              rules={[
                { required: true, whitespace: true, message: t('notification.webhookUrl.required') },
                {
                  validator: (_rule, value: string | undefined) =>
                    !value || isHttpsUrl(value.trim())
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('notification.webhookUrl.https'))),
                },
              ]}
            >
              <Input placeholder="https://example.com/webhook" />
            </Form.Item>
            <Form.Item
              name="webhook_secret"
              label={t('notification.webhookSecret.label')}
              extra={t('notification.webhookSecret.help')}
            >
              <Input.Password placeholder={t('notification.webhookSecret.placeholder')} autoComplete="off" />
            </Form.Item>
          </>
        ) : (
          <Form.Item
            name="notification_email"
            label={t('notification.email.label')}
            rules={[{ type: 'email', message: t('notification.email.invalid') }]}
          >
            <Input placeholder={t('notification.email.placeholder')} />
          </Form.Item>
        )}
        <Button type="primary" htmlType="submit" loading={mutation.isPending}>
          {t('actions.save')}
        </Button>
      </Form>
    </Card>
  );
}

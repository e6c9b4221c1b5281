import { Alert, Button, Flex, Form, Input, InputNumber, Select, Space, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../lib/quota';
import { useUsableGroupsQuery, useUserModelsQuery } from '../api/get-token-options';
import {
  COUNT_PRESETS,
  type ExpiryQuick,
  QUOTA_PRESETS,
  quickExpiry,
  type TokenFormValues,
} from './token-form-rules';

const QUICK: ExpiryQuick[] = ['never', 'hour', 'day', 'month'];

/** The token editor's fields (used by the create/edit drawer). */
export function TokenForm({
  creating,
  initialValues,
  submitting,
  onSubmit,
  onCancel,
}: {
  creating: boolean;
  initialValues: TokenFormValues;
  submitting: boolean;
  onSubmit: (values: TokenFormValues) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('tokens');
  const [form] = Form.useForm<TokenFormValues>();
  const formatQuota = useFormatQuota();
  const groups = useUsableGroupsQuery();
  const models = useUserModelsQuery();
  const unlimited = Form.useWatch('unlimited_quota', form) ?? initialValues.unlimited_quota;
  const limitsOn = Form.useWatch('model_limits_enabled', form) ?? initialValues.model_limits_enabled;
  const quota = Form.useWatch('remain_quota', form) ?? initialValues.remain_quota;
  const groupEntries = Object.entries(groups.data ?? {});
  const noGroups = !groups.isPending && groupEntries.length === 0;

  return (
    <Form<TokenFormValues>
      form={form}
      layout="vertical"
      initialValues={initialValues}
      onFinish={(values) => onSubmit({ ...initialValues, ...values })}
    >
      <Form.Item name="name" label={t('edit.name')} required={creating}>
        <Input placeholder={t('edit.namePlaceholder')} autoComplete="off" maxLength={30} />
      </Form.Item>
      <Form.Item label={t('edit.expiry')} required>
        <Form.Item name="expiry" noStyle>
          <Input placeholder={t('edit.expiryPlaceholder')} aria-label={t('edit.expiry')} />
        </Form.Item>
        <Space wrap style={{ marginTop: 8 }}>
          {QUICK.map((kind) => (
            <Button key={kind} size="small" onClick={() => form.setFieldValue('expiry', quickExpiry(kind))}>
              {t(`edit.${kind}`)}
            </Button>
          ))}
        </Space>
      </Form.Item>
      <Alert type="info" showIcon title={t('edit.quotaNote')} style={{ marginBottom: 16 }} />
      <Form.Item
        label={t('edit.quota')}
        extra={unlimited ? undefined : t('edit.quotaHint', { amount: formatQuota(Number(quota ?? 0)) })}
      >
        <Form.Item name="remain_quota" noStyle>
          <InputNumber
            min={0}
            precision={0}
            disabled={unlimited}
            style={{ width: '100%' }}
            aria-label={t('edit.quota')}
          />
        </Form.Item>
        <Space wrap style={{ marginTop: 8 }}>
          {QUOTA_PRESETS.map((preset) => (
            <Button
              key={preset.quota}
              size="small"
              disabled={unlimited}
              onClick={() => form.setFieldValue('remain_quota', preset.quota)}
            >
              {preset.label}
            </Button>
          ))}
        </Space>
      </Form.Item>
      <Form.Item name="unlimited_quota" label={t('edit.unlimited')} valuePropName="checked">
        <Switch />
      </Form.Item>
      {creating ? (
        <Form.Item label={t('edit.count')} extra={t('edit.countHint')}>
          <Form.Item name="count" noStyle>
            <InputNumber
              min={1}
              max={100}
              precision={0}
              style={{ width: '100%' }}
              aria-label={t('edit.count')}
            />
          </Form.Item>
          <Space wrap style={{ marginTop: 8 }}>
            {COUNT_PRESETS.map((count) => (
              <Button key={count} size="small" onClick={() => form.setFieldValue('count', count)}>
                {count}
              </Button>
            ))}
          </Space>
        </Form.Item>
      ) : null}
      <Form.Item name="allow_ips" label={t('edit.allowIps')}>
        <Input.TextArea placeholder={t('edit.allowIpsPlaceholder')} autoSize={{ minRows: 2, maxRows: 6 }} />
      </Form.Item>
      <Form.Item label={t('edit.modelLimits')}>
        <Flex gap={8} align="center" style={{ marginBottom: 8 }}>
          <Form.Item name="model_limits_enabled" valuePropName="checked" noStyle>
            <Switch aria-label={t('edit.modelLimitsEnabled')} />
          </Form.Item>
          <Typography.Text>{t('edit.modelLimitsEnabled')}</Typography.Text>
        </Flex>
        <Form.Item name="model_limits" noStyle>
          <Select
            mode="multiple"
            allowClear
            disabled={!limitsOn}
            loading={models.isPending}
            placeholder={t('edit.modelLimitsPlaceholder')}
            options={(models.data ?? []).map((model) => ({ value: model, label: model }))}
            style={{ width: '100%' }}
            aria-label={t('edit.modelLimits')}
          />
        </Form.Item>
      </Form.Item>
      <Form.Item name="group" label={t('edit.group')} extra={noGroups ? t('edit.groupDisabled') : undefined}>
        <Select
          allowClear
          disabled={noGroups}
          loading={groups.isPending}
          placeholder={t('edit.groupPlaceholder')}
          options={groupEntries.map(([name, group]) => ({
            value: name,
            label: `${name}${group.desc ? ` — ${group.desc}` : ''} (${group.ratio}x)`,
          }))}
        />
      </Form.Item>
      <Flex gap={8} justify="end">
        <Button onClick={onCancel}>{t('edit.cancel')}</Button>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('edit.submit')}
        </Button>
      </Flex>
    </Form>
  );
}

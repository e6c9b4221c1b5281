import { Button, Divider, Flex, Form, Input, InputNumber, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../lib/quota';
import { useGroupsQuery } from '../api/get-groups';
import type { UpdateUserInput } from '../api/update-user';
import type { ManagedUser } from '../api/user-types';
import { AddQuotaModal } from './add-quota-modal';

const PASSWORD_MIN_LENGTH = 8;

interface EditValues {
  username: string;
  display_name: string;
  password?: string;
  group?: string;
  quota?: number;
}

/**
 * The user editor. Admins edit group and quota (with the add-quota helper); identity bindings are
 * read-only (users bind them from their personal settings).
 */
export function UserEditForm({
  user,
  self,
  submitting,
  onSubmit,
  onCancel,
}: {
  user: ManagedUser;
  self: boolean;
  submitting: boolean;
  onSubmit: (input: UpdateUserInput) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('users');
  const [form] = Form.useForm<EditValues>();
  const quota = Form.useWatch('quota', form) ?? user.quota;
  const formatQuota = useFormatQuota();
  const groups = useGroupsQuery(!self);
  const [addQuotaOpen, setAddQuotaOpen] = useState(false);

  const groupOptions = [...new Set([...(groups.data ?? []), user.group].filter(Boolean))].map((group) => ({
    value: group,
    label: group,
  }));

  const onFinish = (values: EditValues) => {
    onSubmit({
      id: user.id,
      username: values.username.trim(),
      display_name: (values.display_name ?? '').trim(),
      ...(values.password ? { password: values.password } : {}),
      ...(self
        ? {}
        : { group: values.group ?? user.group, quota: Math.trunc(Number(values.quota ?? user.quota)) }),
    });
  };

  const bindings: { key: keyof ManagedUser; label: string }[] = [
    { key: 'github_id', label: t('edit.bindings.github') },
    { key: 'linux_do_id', label: t('edit.bindings.linuxdo') },
    { key: 'wechat_id', label: t('edit.bindings.wechat') },
    { key: 'telegram_id', label: t('edit.bindings.telegram') },
    { key: 'email', label: t('edit.bindings.email') },
  ];

  return (
    <Form<EditValues>
      form={form}
      layout="vertical"
      style={{ maxWidth: 640 }}
      initialValues={{
        username: user.username,
        display_name: user.display_name,
        password: '',
        group: user.group,
        quota: user.quota,
      }}
      onFinish={onFinish}
    >
      <Form.Item
        name="username"
        label={t('fields.username')}
        rules={[{ required: true, whitespace: true, message: t('edit.usernameRequired') }]}
      >
        <Input autoComplete="off" />
      </Form.Item>
      <Form.Item name="display_name" label={t('fields.displayName')}>
        <Input placeholder={t('fields.displayNamePlaceholder')} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('fields.password')}
        rules={[
          { min: PASSWORD_MIN_LENGTH, message: t('edit.passwordTooShort', { min: PASSWORD_MIN_LENGTH }) },
        ]}
      >
        <Input.Password
          placeholder={t('edit.passwordPlaceholder', { min: PASSWORD_MIN_LENGTH })}
          autoComplete="new-password"
        />
      </Form.Item>
      {self ? null : (
        <>
          <Form.Item name="group" label={t('fields.group')}>
            <Select options={groupOptions} loading={groups.isPending} showSearch />
          </Form.Item>
          <Form.Item
            label={t('fields.quota')}
            extra={t('edit.quotaPreview', { amount: formatQuota(Number(quota) || 0) })}
          >
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="quota" noStyle rules={[{ required: true, message: t('edit.quotaRequired') }]}>
                <InputNumber precision={0} style={{ width: '100%' }} aria-label={t('fields.quota')} />
              </Form.Item>
              <Button onClick={() => setAddQuotaOpen(true)}>{t('edit.addQuota.button')}</Button>
            </Space.Compact>
          </Form.Item>
        </>
      )}
      <Divider titlePlacement="start" plain>
        {t('edit.bindings.title')}
      </Divider>
      <Typography.Paragraph type="secondary">{t('edit.bindings.readOnly')}</Typography.Paragraph>
      {bindings.map((binding) => (
        <Form.Item key={binding.key} label={binding.label}>
          <Input value={String(user[binding.key] ?? '')} readOnly placeholder={t('edit.bindings.none')} />
        </Form.Item>
      ))}
      <Flex gap={8}>
        <Button type="primary" htmlType="submit" loading={submitting}>
          {t('edit.submit')}
        </Button>
        <Button onClick={onCancel}>{t('edit.cancel')}</Button>
      </Flex>
      {self ? null : (
        <AddQuotaModal
          open={addQuotaOpen}
          currentQuota={Number(quota) || 0}
          onClose={() => setAddQuotaOpen(false)}
          onAdd={(amount) => form.setFieldValue('quota', (Number(form.getFieldValue('quota')) || 0) + amount)}
        />
      )}
    </Form>
  );
}

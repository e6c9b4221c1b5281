import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { type CreateUserInput, useCreateUserMutation } from '../api/create-user';

/** Adds a user (POST /api/user/); username and password cannot be empty. */
export function AddUserModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('users');
  const [form] = Form.useForm<CreateUserInput>();
  const mutation = useCreateUserMutation();

  const onOk = async () => {
    const values = form.getFieldsValue();
    const username = (values.username ?? '').trim();
    const password = values.password ?? '';
    if (username === '' || password === '') {
      notify.error(t('add.required'));
      return;
    }
    await mutation.mutateAsync({ username, display_name: (values.display_name ?? '').trim(), password });
    notify.success(t('add.success'));
    form.resetFields();
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('add.title')}
      onCancel={onClose}
      onOk={() => onOk().catch(() => undefined)}
      confirmLoading={mutation.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="username" label={t('fields.username')} required>
          <Input placeholder={t('fields.usernamePlaceholder')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="display_name" label={t('fields.displayName')}>
          <Input placeholder={t('fields.displayNamePlaceholder')} autoComplete="off" />
        </Form.Item>
        <Form.Item name="password" label={t('fields.password')} required>
          <Input.Password placeholder={t('fields.passwordPlaceholder')} autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

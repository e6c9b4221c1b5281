import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useUpdateSelfMutation } from '../api/update-self';

const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 20;

interface PasswordValues {
  password: string;
  confirmation: string;
}

/** PUT /api/user/self {password}; the two entries must match. Closes on success. */
export function ChangePasswordModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('personal');
  const [form] = Form.useForm<PasswordValues>();
  const mutation = useUpdateSelfMutation();

  const onOk = async () => {
    const values = await form.validateFields();
    await mutation.mutateAsync({ password: values.password });
    notify.success(t('security.password.changed'));
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('security.password.title')}
      onCancel={onClose}
      onOk={() => onOk().catch(() => undefined)}
      confirmLoading={mutation.isPending}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="password"
          label={t('security.password.new')}
          rules={[
            { required: true, message: t('security.password.required') },
            {
              min: PASSWORD_MIN_LENGTH,
              message: t('security.password.tooShort', { min: PASSWORD_MIN_LENGTH }),
            },
            {
              max: PASSWORD_MAX_LENGTH,
              message: t('security.password.tooLong', { max: PASSWORD_MAX_LENGTH }),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmation"
          label={t('security.password.confirm')}
          dependencies={['password']}
          rules={[
            { required: true, message: t('security.password.confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_rule, value) =>
                !value || value === getFieldValue('password')
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('security.password.mismatch'))),
            }),
          ]}
        >
          <Input.Password autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import type { SelfChanges } from '../api/update-self';
import { useUpdateSelfMutation } from '../api/update-self';

export const USERNAME_MAX_LENGTH = 12;
export const DISPLAY_NAME_MAX_LENGTH = 20;

interface ProfileValues {
  username: string;
  display_name: string;
}

/** PUT /api/user/self with the changed username / display name only. Closes on success. */
export function EditProfileModal({
  open,
  user,
  onClose,
}: {
  open: boolean;
  user: { username: string; display_name?: string };
  onClose: () => void;
}) {
  const { t } = useTranslation('personal');
  const [form] = Form.useForm<ProfileValues>();
  const mutation = useUpdateSelfMutation();

  const onOk = async () => {
    const values = await form.validateFields();
    const username = values.username.trim();
    const displayName = (values.display_name ?? '').trim();
    const changes: SelfChanges = {};
    if (username !== user.username) changes.username = username;
    if (displayName !== (user.display_name ?? '')) changes.display_name = displayName;
    if (Object.keys(changes).length === 0) {
      notify.info(t('profile.edit.unchanged'));
      onClose();
      return;
    }
    await mutation.mutateAsync(changes);
    notify.success(t('profile.edit.saved'));
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('profile.edit.title')}
      onCancel={onClose}
      onOk={() => onOk().catch(() => undefined)}
      confirmLoading={mutation.isPending}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        preserve={false}
        initialValues={{ username: user.username, display_name: user.display_name ?? '' }}
      >
        <Form.Item
          name="username"
          label={t('profile.edit.username')}
          rules={[
            { required: true, whitespace: true, message: t('profile.edit.usernameRequired') },
            {
              max: USERNAME_MAX_LENGTH,
              message: t('profile.edit.usernameTooLong', { max: USERNAME_MAX_LENGTH }),
            },
          ]}
        >
          <Input autoComplete="username" />
        </Form.Item>
        <Form.Item
          name="display_name"
          label={t('profile.edit.displayName')}
          rules={[
            {
              max: DISPLAY_NAME_MAX_LENGTH,
              message: t('profile.edit.displayNameTooLong', { max: DISPLAY_NAME_MAX_LENGTH }),
            },
          ]}
        >
          <Input />
        </Form.Item>
      </Form>
    </Modal>
  );
}

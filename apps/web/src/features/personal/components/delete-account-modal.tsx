import { useQueryClient } from '@tanstack/react-query';
import { Alert, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { endSession } from '../../../lib/end-session';
import { notify } from '../../../lib/notify';
import { useDeleteSelfMutation } from '../api/delete-self';

/**
 * Deletes (deactivates) the own account. The typed text must equal the username; afterwards the
 * session ends and the user goes to /login.
 */
export function DeleteAccountModal({
  open,
  username,
  onClose,
}: {
  open: boolean;
  username: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('personal');
  const [typed, setTyped] = useState('');
  const mutation = useDeleteSelfMutation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const matches = typed === username && username !== '';

  const close = () => {
    setTyped('');
    onClose();
  };

  const onOk = async () => {
    if (!matches) {
      notify.error(t('security.delete.mismatch'));
      return;
    }
    await mutation.mutateAsync();
    notify.success(t('security.delete.done'));
    await endSession();
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== 'status' });
    await navigate('/login');
  };

  return (
    <Modal
      open={open}
      title={t('security.delete.title')}
      onCancel={close}
      onOk={() => onOk().catch(() => undefined)}
      okText={t('security.delete.confirm')}
      okButtonProps={{ danger: true, disabled: !matches }}
      confirmLoading={mutation.isPending}
      destroyOnHidden
    >
      <Alert type="warning" showIcon title={t('security.delete.warning')} style={{ marginBottom: 12 }} />
      <Typography.Paragraph>{t('security.delete.instruction', { username })}</Typography.Paragraph>
      <Input
        value={typed}
        onChange={(event) => setTyped(event.target.value)}
        placeholder={t('security.delete.placeholder')}
        aria-label={t('security.delete.placeholder')}
      />
    </Modal>
  );
}

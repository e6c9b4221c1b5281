import { Button, Form, Input, Result } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useCopyText } from '../../../components/use-copy-text';
import { useConfirmPasswordResetMutation } from '../api/confirm-password-reset';
import { AuthCard } from '../components/auth-card';

/**
 * /user/reset?email&token — the landing of a reset mail. Confirming returns a new password,
 * which is copied to the clipboard (or offered for manual copying) and shown read-only.
 */
export function PasswordResetConfirmPage() {
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const email = searchParams.get('email') ?? '';
  const token = searchParams.get('token') ?? '';
  const mutation = useConfirmPasswordResetMutation();
  const copy = useCopyText();
  const [newPassword, setNewPassword] = useState<string | null>(null);

  if (!email || !token) {
    return (
      <Result
        status="warning"
        title={t('resetConfirm.invalidLink')}
        extra={
          <Link to="/reset">
            <Button type="primary">{t('resetConfirm.requestAgain')}</Button>
          </Link>
        }
      />
    );
  }

  const onConfirm = async () => {
    const password = await mutation.mutateAsync({ email, token });
    setNewPassword(password);
    await copy(password, t('resetConfirm.copied', { password }));
  };

  return (
    <AuthCard title={t('resetConfirm.title')}>
      <Form layout="vertical" size="large">
        <Form.Item label={t('reset.email.label')}>
          <Input value={email} readOnly />
        </Form.Item>
        {newPassword !== null ? (
          <Form.Item label={t('resetConfirm.newPassword')}>
            <Input value={newPassword} readOnly data-testid="new-password" />
          </Form.Item>
        ) : null}
        <Button
          type="primary"
          block
          loading={mutation.isPending}
          disabled={newPassword !== null}
          onClick={() => onConfirm().catch(() => undefined)}
        >
          {newPassword !== null ? t('resetConfirm.done') : t('resetConfirm.submit')}
        </Button>
      </Form>
      {newPassword !== null ? (
        <div style={{ marginTop: 12 }}>
          <Link to="/login">{t('reset.backToLogin')}</Link>
        </div>
      ) : null}
    </AuthCard>
  );
}

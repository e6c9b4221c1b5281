import { MailOutlined } from '@ant-design/icons';
import { Button, Form, Input, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TurnstileWidget } from '../../../components/turnstile-widget';
import { notify } from '../../../lib/notify';
import { useSiteStatus } from '../../../lib/site-status';
import { useCountdown } from '../../../lib/use-countdown';
import { useRequestPasswordResetMutation } from '../api/request-password-reset';
import { AuthCard } from '../components/auth-card';

/** The submit button is locked for this many seconds after each click. */
export const RESET_LOCK_SECONDS = 30;

/** /reset — asks for a password-reset mail (GET /api/reset_password). */
export function PasswordResetRequestPage() {
  const { t } = useTranslation('auth');
  const status = useSiteStatus();
  const [turnstileToken, setTurnstileToken] = useState('');
  const mutation = useRequestPasswordResetMutation();
  const lock = useCountdown(RESET_LOCK_SECONDS);
  const turnstileEnabled = status.turnstile_check === true && Boolean(status.turnstile_site_key);

  const onFinish = async ({ email }: { email: string }) => {
    if (turnstileEnabled && !turnstileToken) {
      notify.info(t('turnstile.wait'));
      return;
    }
    lock.start();
    await mutation.mutateAsync({ email: email.trim(), turnstile: turnstileToken });
    notify.success(t('reset.mailSent'));
  };

  return (
    <AuthCard title={t('reset.title')}>
      <Form
        layout="vertical"
        size="large"
        requiredMark={false}
        onFinish={(values) => onFinish(values).catch(() => undefined)}
      >
        <Form.Item
          name="email"
          label={t('reset.email.label')}
          rules={[
            { required: true, whitespace: true, message: t('reset.email.required') },
            { type: 'email', message: t('register.email.invalid') },
          ]}
        >
          <Input prefix={<MailOutlined />} placeholder={t('reset.email.placeholder')} autoComplete="email" />
        </Form.Item>
        {turnstileEnabled ? (
          <Form.Item>
            <TurnstileWidget siteKey={status.turnstile_site_key as string} onVerify={setTurnstileToken} />
          </Form.Item>
        ) : null}
        <Form.Item style={{ marginBottom: 8 }}>
          <Button type="primary" htmlType="submit" block disabled={lock.active} loading={mutation.isPending}>
            {lock.active ? t('reset.retryIn', { seconds: lock.remaining }) : t('reset.submit')}
          </Button>
        </Form.Item>
      </Form>
      <Typography.Text type="secondary">
        <Link to="/login">{t('reset.backToLogin')}</Link>
      </Typography.Text>
    </AuthCard>
  );
}

import { Flex, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { notify } from '../../../lib/notify';
import { useSiteStatus } from '../../../lib/site-status';
import { AuthCard } from '../components/auth-card';
import { LoginForm } from '../components/login-form';
import { ThirdPartyLogin } from '../components/third-party-login';

/** /login — `?expired=true` (set after a 401) shows the login-expired message once. */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const status = useSiteStatus();
  const expiredShown = useRef(false);
  const expired = searchParams.get('expired') === 'true';

  useEffect(() => {
    if (expired && !expiredShown.current) {
      expiredShown.current = true;
      notify.error(t('login.expired'));
    }
  }, [expired, t]);

  return (
    <AuthCard title={t('login.title')}>
      <LoginForm />
      <Flex justify="space-between" wrap gap={8}>
        <Typography.Text type="secondary">
          {t('login.forgotPassword')} <Link to="/reset">{t('login.resetLink')}</Link>
        </Typography.Text>
        {status.self_use_mode_enabled ? null : (
          <Typography.Text type="secondary">
            {t('login.noAccount')} <Link to="/register">{t('login.registerLink')}</Link>
          </Typography.Text>
        )}
      </Flex>
      <ThirdPartyLogin />
    </AuthCard>
  );
}

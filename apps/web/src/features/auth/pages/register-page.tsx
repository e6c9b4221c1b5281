import { Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { AFF_STORAGE_KEY } from '../../../lib/oauth';
import { writeString } from '../../../lib/storage';
import { AuthCard } from '../components/auth-card';
import { RegisterForm } from '../components/register-form';

/** /register — `?aff=CODE` is remembered locally and sent as aff_code when registering. */
export function RegisterPage() {
  const { t } = useTranslation('auth');
  const [searchParams] = useSearchParams();
  const aff = searchParams.get('aff');

  useEffect(() => {
    if (aff) writeString(AFF_STORAGE_KEY, aff);
  }, [aff]);

  return (
    <AuthCard title={t('register.title')}>
      <RegisterForm />
      <Typography.Text type="secondary">
        {t('register.haveAccount')} <Link to="/login">{t('register.loginLink')}</Link>
      </Typography.Text>
    </AuthCard>
  );
}

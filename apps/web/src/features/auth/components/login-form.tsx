import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TurnstileWidget } from '../../../components/turnstile-widget';
import { useLandingPaths } from '../../../lib/landing';
import { notify } from '../../../lib/notify';
import { useSiteStatus } from '../../../lib/site-status';
import { useLoginMutation } from '../api/login';
import { useFinishLogin } from './use-finish-login';

interface LoginValues {
  username: string;
  password: string;
}

/** Username-or-e-mail + password login (POST /api/user/login). */
export function LoginForm() {
  const { t } = useTranslation('auth');
  const status = useSiteStatus();
  const [turnstileToken, setTurnstileToken] = useState('');
  const mutation = useLoginMutation();
  const finishLogin = useFinishLogin();
  const { afterPasswordLogin } = useLandingPaths();
  const turnstileEnabled = status.turnstile_check === true && Boolean(status.turnstile_site_key);

  const onFinish = async (values: LoginValues) => {
    if (turnstileEnabled && !turnstileToken) {
      notify.info(t('turnstile.wait'));
      return;
    }
    const username = values.username.trim();
    const user = await mutation.mutateAsync({
      username,
      password: values.password,
      turnstile: turnstileToken,
    });
    await finishLogin(user, afterPasswordLogin, { username, password: values.password });
  };

  return (
    <Form<LoginValues>
      layout="vertical"
      size="large"
      onFinish={(values) => onFinish(values).catch(() => undefined)}
      requiredMark={false}
    >
      <Form.Item
        name="username"
        label={t('login.username.label')}
        rules={[{ required: true, whitespace: true, message: t('login.username.required') }]}
      >
        <Input
          prefix={<UserOutlined />}
          placeholder={t('login.username.placeholder')}
          autoComplete="username"
        />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('login.password.label')}
        rules={[{ required: true, message: t('login.password.required') }]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('login.password.placeholder')}
          autoComplete="current-password"
        />
      </Form.Item>
      {turnstileEnabled ? (
        <Form.Item>
          <TurnstileWidget siteKey={status.turnstile_site_key as string} onVerify={setTurnstileToken} />
        </Form.Item>
      ) : null}
      <Form.Item style={{ marginBottom: 8 }}>
        <Button type="primary" htmlType="submit" block loading={mutation.isPending}>
          {t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}

import { LockOutlined, MailOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { TurnstileWidget } from '../../../components/turnstile-widget';
import { notify } from '../../../lib/notify';
import { AFF_STORAGE_KEY } from '../../../lib/oauth';
import { useSiteStatus } from '../../../lib/site-status';
import { readString } from '../../../lib/storage';
import { useCountdown } from '../../../lib/use-countdown';
import { useRegisterMutation } from '../api/register';
import { useSendVerificationCodeMutation } from '../api/send-verification-code';

/** Spec §5 and §9: username ≤ 12, password 8–20, resend wait 30 s. */
export const USERNAME_MAX_LENGTH = 12;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 20;
export const RESEND_SECONDS = 30;

interface RegisterValues {
  username: string;
  password: string;
  password2: string;
  email?: string;
  verification_code?: string;
}

/** Registration (POST /api/user/register) with the optional e-mail code and human check. */
export function RegisterForm() {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<RegisterValues>();
  const status = useSiteStatus();
  const navigate = useNavigate();
  const [turnstileToken, setTurnstileToken] = useState('');
  const register = useRegisterMutation();
  const sendCode = useSendVerificationCodeMutation();
  const countdown = useCountdown(RESEND_SECONDS);
  const emailVerification = status.email_verification === true;
  const turnstileEnabled = status.turnstile_check === true && Boolean(status.turnstile_site_key);

  const turnstileReady = () => {
    if (turnstileEnabled && !turnstileToken) {
      notify.info(t('turnstile.wait'));
      return false;
    }
    return true;
  };

  const onSendCode = async () => {
    const email = (form.getFieldValue('email') as string | undefined)?.trim() ?? '';
    if (!email) return;
    if (!turnstileReady()) return;
    await sendCode.mutateAsync({ email, turnstile: turnstileToken });
    countdown.start();
    notify.success(t('register.codeSent'));
  };

  const onFinish = async (values: RegisterValues) => {
    if (!turnstileReady()) return;
    const affCode = readString(AFF_STORAGE_KEY) ?? '';
    await register.mutateAsync({
      username: values.username.trim(),
      password: values.password,
      password2: values.password2,
      ...(emailVerification
        ? { email: values.email?.trim() ?? '', verification_code: values.verification_code?.trim() ?? '' }
        : {}),
      ...(affCode ? { aff_code: affCode } : {}),
      turnstile: turnstileToken,
    });
    notify.success(t('register.success'));
    await navigate('/login');
  };

  return (
    <Form<RegisterValues>
      form={form}
      layout="vertical"
      size="large"
      requiredMark={false}
      onFinish={(values) => onFinish(values).catch(() => undefined)}
    >
      <Form.Item
        name="username"
        label={t('register.username.label')}
        rules={[
          { required: true, whitespace: true, message: t('register.username.required') },
          { max: USERNAME_MAX_LENGTH, message: t('register.username.tooLong', { max: USERNAME_MAX_LENGTH }) },
        ]}
      >
        <Input
          prefix={<UserOutlined />}
          placeholder={t('register.username.placeholder')}
          autoComplete="username"
        />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('register.password.label')}
        rules={[
          { required: true, message: t('register.password.required') },
          {
            min: PASSWORD_MIN_LENGTH,
            message: t('register.password.tooShort', { min: PASSWORD_MIN_LENGTH }),
          },
          { max: PASSWORD_MAX_LENGTH, message: t('register.password.tooLong', { max: PASSWORD_MAX_LENGTH }) },
        ]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('register.password.placeholder', {
            min: PASSWORD_MIN_LENGTH,
            max: PASSWORD_MAX_LENGTH,
          })}
          autoComplete="new-password"
        />
      </Form.Item>
      <Form.Item
        name="password2"
        label={t('register.password2.label')}
        dependencies={['password']}
        rules={[
          { required: true, message: t('register.password2.required') },
          ({ getFieldValue }) => ({
            validator: (_rule, value) =>
              !value || value === getFieldValue('password')
                ? Promise.resolve()
                : Promise.reject(new Error(t('register.password2.mismatch'))),
          }),
        ]}
      >
        <Input.Password
          prefix={<LockOutlined />}
          placeholder={t('register.password2.placeholder')}
          autoComplete="new-password"
        />
      </Form.Item>
      {emailVerification ? (
        <>
          <Form.Item label={t('register.email.label')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item
                name="email"
                noStyle
                rules={[
                  { required: true, message: t('register.email.required') },
                  { type: 'email', message: t('register.email.invalid') },
                ]}
              >
                <Input
                  prefix={<MailOutlined />}
                  placeholder={t('register.email.placeholder')}
                  autoComplete="email"
                />
              </Form.Item>
              <Button
                onClick={() => onSendCode().catch(() => undefined)}
                disabled={countdown.active}
                loading={sendCode.isPending}
              >
                {countdown.active
                  ? t('register.resendIn', { seconds: countdown.remaining })
                  : t('register.sendCode')}
              </Button>
            </Space.Compact>
          </Form.Item>
          <Form.Item
            name="verification_code"
            label={t('register.code.label')}
            rules={[{ required: true, whitespace: true, message: t('register.code.required') }]}
          >
            <Input prefix={<SafetyOutlined />} placeholder={t('register.code.placeholder')} />
          </Form.Item>
        </>
      ) : null}
      {turnstileEnabled ? (
        <Form.Item>
          <TurnstileWidget siteKey={status.turnstile_site_key as string} onVerify={setTurnstileToken} />
        </Form.Item>
      ) : null}
      <Form.Item style={{ marginBottom: 8 }}>
        <Button type="primary" htmlType="submit" block loading={register.isPending}>
          {t('register.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}

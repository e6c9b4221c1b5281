import { Button, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TurnstileWidget } from '../../../components/turnstile-widget';
import { showApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { useSiteStatus } from '../../../lib/site-status';
import { useCountdown } from '../../../lib/use-countdown';
import { bindEmail, sendBindEmailCode } from '../api/bind-accounts';

const RESEND_SECONDS = 30;

interface EmailBindValues {
  email: string;
  code: string;
}

/** Binds (or changes) the e-mail: send a code, then GET /api/oauth/email/bind. Closes on success. */
export function EmailBindModal({
  open,
  onClose,
  onBound,
}: {
  open: boolean;
  onClose: () => void;
  onBound: () => void;
}) {
  const { t } = useTranslation('personal');
  const [form] = Form.useForm<EmailBindValues>();
  const status = useSiteStatus();
  const countdown = useCountdown(RESEND_SECONDS);
  const [turnstileToken, setTurnstileToken] = useState('');
  const [sending, setSending] = useState(false);
  const [binding, setBinding] = useState(false);
  const turnstileEnabled = status.turnstile_check === true && Boolean(status.turnstile_site_key);

  const sendCode = async () => {
    const email = ((form.getFieldValue('email') as string | undefined) ?? '').trim();
    if (!email) {
      notify.error(t('bindings.email.required'));
      return;
    }
    if (turnstileEnabled && !turnstileToken) {
      notify.info(t('bindings.turnstileWait'));
      return;
    }
    setSending(true);
    try {
      await sendBindEmailCode(email, turnstileToken);
      countdown.start();
      notify.success(t('bindings.email.codeSent'));
    } catch (error) {
      showApiError(error);
    } finally {
      setSending(false);
    }
  };

  const onOk = async () => {
    const values = await form.validateFields();
    setBinding(true);
    try {
      await bindEmail(values.email.trim(), values.code.trim());
      notify.success(t('bindings.bound'));
      onBound();
      onClose();
    } catch (error) {
      showApiError(error);
    } finally {
      setBinding(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('bindings.email.title')}
      onCancel={onClose}
      onOk={() => onOk().catch(() => undefined)}
      confirmLoading={binding}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item label={t('bindings.email.address')} required>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item
              name="email"
              noStyle
              rules={[
                { required: true, whitespace: true, message: t('bindings.email.required') },
                { type: 'email', message: t('bindings.email.invalid') },
              ]}
            >
              <Input placeholder={t('bindings.email.placeholder')} autoComplete="email" />
            </Form.Item>
            <Button onClick={() => void sendCode()} disabled={countdown.active} loading={sending}>
              {countdown.active
                ? t('bindings.email.resendIn', { seconds: countdown.remaining })
                : t('bindings.email.sendCode')}
            </Button>
          </Space.Compact>
        </Form.Item>
        <Form.Item
          name="code"
          label={t('bindings.email.code')}
          rules={[{ required: true, whitespace: true, message: t('bindings.email.codeRequired') }]}
        >
          <Input placeholder={t('bindings.email.codePlaceholder')} />
        </Form.Item>
        {turnstileEnabled ? (
          <TurnstileWidget siteKey={status.turnstile_site_key as string} onVerify={setTurnstileToken} />
        ) : null}
      </Form>
    </Modal>
  );
}

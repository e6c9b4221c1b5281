import { Button, Flex, Form, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../../lib/api-client';
import type { LoginUser } from '../api/auth-types';
import { wechatLogin } from '../api/oauth-login';

/** WeChat login: scan the official account's QR code, send "验证码", type the code it answers. */
export function WechatLoginModal({
  open,
  qrCodeUrl,
  onClose,
  onLogin,
}: {
  open: boolean;
  qrCodeUrl: string | undefined;
  onClose: () => void;
  onLogin: (user: LoginUser) => void;
}) {
  const { t } = useTranslation('auth');
  const [code, setCode] = useState('');
  const [loading, setLoading] = useState(false);

  const submit = async () => {
    if (!code.trim()) return;
    setLoading(true);
    try {
      onLogin(await wechatLogin(code.trim()));
    } catch (error) {
      showApiError(error);
    } finally {
      setLoading(false);
    }
  };

  return (
    <Modal open={open} title={t('wechat.title')} onCancel={onClose} footer={null} destroyOnHidden>
      <Flex vertical align="center" gap={12}>
        {qrCodeUrl ? <img src={qrCodeUrl} alt={t('wechat.qrAlt')} style={{ maxWidth: 200 }} /> : null}
        <Typography.Text type="secondary">{t('wechat.hint')}</Typography.Text>
        <Form layout="inline" onFinish={() => void submit()} style={{ width: '100%' }}>
          <Form.Item style={{ flex: 1 }}>
            <Input
              value={code}
              onChange={(event) => setCode(event.target.value)}
              placeholder={t('wechat.code')}
            />
          </Form.Item>
          <Button type="primary" htmlType="submit" loading={loading}>
            {t('login.submit')}
          </Button>
        </Form>
      </Flex>
    </Modal>
  );
}

import { Flex, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { showApiError } from '../../../lib/api-client';
import { notify } from '../../../lib/notify';
import { bindWechat } from '../api/bind-accounts';

/** Binds WeChat with the code the official account answers; closes on success. */
export function WechatBindModal({
  open,
  qrCodeUrl,
  onClose,
  onBound,
}: {
  open: boolean;
  qrCodeUrl: string | undefined;
  onClose: () => void;
  onBound: () => void;
}) {
  const { t } = useTranslation('personal');
  const [code, setCode] = useState('');
  const [loading, setLoading] = useState(false);

  const onOk = async () => {
    if (!code.trim()) {
      notify.error(t('bindings.wechat.codeRequired'));
      return;
    }
    setLoading(true);
    try {
      await bindWechat(code.trim());
      notify.success(t('bindings.bound'));
      onBound();
      onClose();
    } catch (error) {
      showApiError(error);
    } finally {
      setLoading(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('bindings.wechat.title')}
      onCancel={onClose}
      onOk={() => void onOk()}
      confirmLoading={loading}
      destroyOnHidden
    >
      <Flex vertical align="center" gap={12}>
        {qrCodeUrl ? <img src={qrCodeUrl} alt="" style={{ maxWidth: 200 }} /> : null}
        <Typography.Text type="secondary">{t('bindings.wechat.hint')}</Typography.Text>
        <Input
          value={code}
          onChange={(event) => setCode(event.target.value)}
          placeholder={t('bindings.wechat.code')}
        />
      </Flex>
    </Modal>
  );
}

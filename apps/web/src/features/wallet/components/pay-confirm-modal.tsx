import { Descriptions, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

/** Asks to confirm an online top-up, showing the amount and the payable sum. */
export function PayConfirmModal({
  open,
  amount,
  payable,
  methodLabel,
  loading,
  onConfirm,
  onCancel,
}: {
  open: boolean;
  amount: string;
  payable: string;
  methodLabel: string;
  loading: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('wallet');
  return (
    <Modal
      open={open}
      title={t('confirm.title')}
      onOk={onConfirm}
      onCancel={onCancel}
      confirmLoading={loading}
      destroyOnHidden
    >
      <Descriptions column={1} size="small">
        <Descriptions.Item label={t('confirm.amount')}>{amount}</Descriptions.Item>
        <Descriptions.Item label={t('confirm.payable')}>{payable}</Descriptions.Item>
        <Descriptions.Item label={t('confirm.method')}>{methodLabel}</Descriptions.Item>
      </Descriptions>
      <p style={{ marginBottom: 0 }}>{t('confirm.question')}</p>
    </Modal>
  );
}

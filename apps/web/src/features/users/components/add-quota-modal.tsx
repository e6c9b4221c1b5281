import { Form, InputNumber, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../lib/quota';

/**
 * Adds an amount (negative to subtract) to the quota field of the edit form. Nothing is saved
 * until the form is submitted.
 */
export function AddQuotaModal({
  open,
  currentQuota,
  onAdd,
  onClose,
}: {
  open: boolean;
  currentQuota: number;
  onAdd: (amount: number) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('users');
  const formatQuota = useFormatQuota();
  const [amount, setAmount] = useState<number | null>(0);

  return (
    <Modal
      open={open}
      title={t('edit.addQuota.title')}
      onCancel={onClose}
      onOk={() => {
        onAdd(amount ?? 0);
        setAmount(0);
        onClose();
      }}
      destroyOnHidden
    >
      <Typography.Paragraph>
        {t('edit.addQuota.result', {
          current: formatQuota(currentQuota),
          next: formatQuota(currentQuota + (amount ?? 0)),
        })}
      </Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('edit.addQuota.amount')} extra={t('edit.addQuota.help')}>
          <InputNumber
            value={amount}
            onChange={(value) => setAmount(typeof value === 'number' ? value : null)}
            precision={0}
            style={{ width: '100%' }}
            aria-label={t('edit.addQuota.amount')}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}

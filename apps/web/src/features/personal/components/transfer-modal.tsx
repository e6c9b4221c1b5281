import { Form, InputNumber, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useFormatQuota, useQuotaDisplay } from '../../../lib/quota';
import { useTransferAffQuotaMutation } from '../api/transfer-aff-quota';

/** Moves invitation earnings (aff_quota) into the balance; at least one quota unit. */
export function TransferModal({
  open,
  available,
  onClose,
}: {
  open: boolean;
  available: number;
  onClose: () => void;
}) {
  const { t } = useTranslation('personal');
  const [form] = Form.useForm<{ quota: number }>();
  const { quotaPerUnit } = useQuotaDisplay();
  const formatQuota = useFormatQuota();
  const mutation = useTransferAffQuotaMutation();

  const onOk = async () => {
    const { quota } = await form.validateFields();
    await mutation.mutateAsync(quota);
    notify.success(t('invite.transferSuccess'));
    onClose();
  };

  return (
    <Modal
      open={open}
      title={t('invite.transferTitle')}
      onCancel={onClose}
      onOk={() => onOk().catch(() => undefined)}
      confirmLoading={mutation.isPending}
      destroyOnHidden
    >
      <Typography.Paragraph>{t('invite.available', { amount: formatQuota(available) })}</Typography.Paragraph>
      <Form
        form={form}
        layout="vertical"
        initialValues={{ quota: Math.max(quotaPerUnit, 0) }}
        preserve={false}
      >
        <Form.Item
          name="quota"
          label={t('invite.transferAmount', { min: formatQuota(quotaPerUnit) })}
          rules={[
            { required: true, message: t('invite.transferRequired') },
            {
              validator: (_rule, value: number | null) =>
                value !== null && value !== undefined && value < quotaPerUnit
                  ? Promise.reject(new Error(t('invite.transferMinimum', { min: formatQuota(quotaPerUnit) })))
                  : Promise.resolve(),
            },
          ]}
        >
          <InputNumber min={0} max={available} precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

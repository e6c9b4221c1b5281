import { REDEMPTION_CREATE_MAX_COUNT, type RedemptionView } from '@switchyard/shared';
import { App, Form, Input, InputNumber, Modal, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { useFormatQuota } from '../../../lib/quota';
import { useRedemptionQuery } from '../api/get-redemptions';
import { useCreateRedemptionsMutation, useUpdateRedemptionMutation } from '../api/save-redemption';
import {
  buildRedemptionBody,
  downloadText,
  isRedemptionCount,
  REDEMPTION_DEFAULT_QUOTA,
  type RedemptionFormValues,
  redemptionFile,
} from './redemption-rules';

/** Creates codes (`id` null; then offers them as a text file) or edits one unused code. */
export function RedemptionEditModal({
  open,
  id,
  onClose,
}: {
  open: boolean;
  id: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('redemptions');
  const creating = id === null;
  const existing = useRedemptionQuery(id ?? 0, open && !creating);
  const ready = creating || existing.isSuccess;
  return (
    <Modal
      open={open}
      title={creating ? t('edit.createTitle') : t('edit.updateTitle')}
      onCancel={onClose}
      footer={ready ? undefined : null}
      okButtonProps={{ htmlType: 'submit', form: 'redemption-form' }}
      okText={t('edit.submit')}
      cancelText={t('edit.cancel')}
      destroyOnHidden
    >
      {creating ? (
        <RedemptionForm creating onDone={onClose} />
      ) : existing.isPending ? (
        <Skeleton active />
      ) : existing.isError ? (
        <Result status="error" title={t('edit.loadFailed')} subTitle={existing.error.message} />
      ) : (
        <RedemptionForm key={existing.data.id} creating={false} code={existing.data} onDone={onClose} />
      )}
    </Modal>
  );
}

function RedemptionForm({
  creating,
  code,
  onDone,
}: {
  creating: boolean;
  code?: RedemptionView;
  onDone: () => void;
}) {
  const { t } = useTranslation('redemptions');
  const { modal } = App.useApp();
  const [form] = Form.useForm<RedemptionFormValues>();
  const formatQuota = useFormatQuota();
  const create = useCreateRedemptionsMutation();
  const update = useUpdateRedemptionMutation();
  const quota = Form.useWatch('quota', form);

  const offerDownload = (name: string, keys: string[]) => {
    const file = redemptionFile(name, keys);
    modal.confirm({
      title: t('edit.downloadTitle'),
      content: t('edit.downloadContent', { count: keys.length }),
      okText: t('edit.download'),
      cancelText: t('edit.skip'),
      onOk: () => downloadText(file.fileName, file.text),
    });
  };

  const onFinish = (values: RedemptionFormValues) => {
    const result = buildRedemptionBody(values, creating, (amount) => formatQuota(amount));
    if ('error' in result) {
      notify.error(t(`edit.${result.error}`, { max: REDEMPTION_CREATE_MAX_COUNT }));
      return;
    }
    if (creating) {
      create
        .mutateAsync(result.body)
        .then((keys) => {
          notify.success(t('edit.created'));
          onDone();
          offerDownload(result.body.name ?? '', keys);
        })
        .catch(() => undefined);
      return;
    }
    update
      .mutateAsync({ id: code?.id ?? 0, name: result.body.name, quota: result.body.quota })
      .then(() => {
        notify.success(t('edit.updated'));
        onDone();
      })
      .catch(() => undefined);
  };

  return (
    <Form<RedemptionFormValues>
      id="redemption-form"
      form={form}
      layout="vertical"
      disabled={create.isPending || update.isPending}
      initialValues={{
        name: code?.name ?? '',
        quota: code?.quota ?? REDEMPTION_DEFAULT_QUOTA,
        count: 1,
      }}
      onFinish={onFinish}
    >
      <Form.Item name="name" label={t('edit.name')}>
        <Input placeholder={t('edit.namePlaceholder')} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="quota"
        label={t('edit.quota')}
        extra={t('edit.quotaHint', { amount: formatQuota(Number(quota ?? 0)) })}
      >
        <InputNumber min={1} precision={0} style={{ width: '100%' }} />
      </Form.Item>
      {creating ? (
        <Form.Item
          name="count"
          label={t('edit.count')}
          extra={t('edit.countHint', { max: REDEMPTION_CREATE_MAX_COUNT })}
          rules={[
            {
              validator: (_rule, value: number | string | null) =>
                isRedemptionCount(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('edit.countInvalid', { max: REDEMPTION_CREATE_MAX_COUNT }))),
            },
          ]}
        >
          {/* No min/max: InputNumber would silently clamp 101 to 100 on blur; the rule refuses it. */}
          <InputNumber precision={0} style={{ width: '100%' }} />
        </Form.Item>
      ) : null}
    </Form>
  );
}

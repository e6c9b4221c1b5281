import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { isNumber, type ModelPricingRow } from './model-pricing';

interface AddModelValues {
  name?: string;
  price?: string;
  ratio?: string;
  completionRatio?: string;
}

/** Adds a model row; the name must be new ('model name already exists') and values numeric. */
export function AddModelModal({
  open,
  existingNames,
  onCancel,
  onAdd,
}: {
  open: boolean;
  existingNames: ReadonlySet<string>;
  onCancel: () => void;
  onAdd: (row: ModelPricingRow) => void;
}) {
  const { t } = useTranslation('settings');
  const [form] = Form.useForm<AddModelValues>();
  const price = Form.useWatch('price', form) ?? '';
  const fixedPrice = price.trim() !== '';

  const numberRule = {
    validator: (_rule: unknown, value: string | undefined) =>
      !value || value.trim() === '' || isNumber(value)
        ? Promise.resolve()
        : Promise.reject(new Error(t('ratio.numberOnly'))),
  };

  const onOk = async () => {
    const values = await form.validateFields();
    onAdd({
      name: (values.name ?? '').trim(),
      price: (values.price ?? '').trim(),
      ratio: fixedPrice ? '' : (values.ratio ?? '').trim(),
      completionRatio: fixedPrice ? '' : (values.completionRatio ?? '').trim(),
    });
    form.resetFields();
  };

  return (
    <Modal
      open={open}
      title={t('ratio.add.title')}
      onCancel={onCancel}
      onOk={() => void onOk().catch(() => undefined)}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" name="add-model" preserve={false}>
        <Form.Item
          name="name"
          label={t('ratio.columns.name')}
          rules={[
            { required: true, whitespace: true, message: t('ratio.add.nameRequired') },
            {
              validator: (_rule, value: string | undefined) =>
                value && existingNames.has(value.trim())
                  ? Promise.reject(new Error(t('ratio.add.duplicate')))
                  : Promise.resolve(),
            },
          ]}
        >
          <Input placeholder="gpt-4o-mini" autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="price"
          label={t('ratio.columns.price')}
          extra={t('ratio.add.priceHelp')}
          rules={[numberRule]}
        >
          <Input inputMode="decimal" />
        </Form.Item>
        <Form.Item name="ratio" label={t('ratio.columns.ratio')} rules={[numberRule]}>
          <Input inputMode="decimal" disabled={fixedPrice} />
        </Form.Item>
        <Form.Item name="completionRatio" label={t('ratio.columns.completionRatio')} rules={[numberRule]}>
          <Input inputMode="decimal" disabled={fixedPrice} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

import { Form, Input, Modal, Radio, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { type BatchInput, type BatchType, checkBatch } from './model-pricing';

/**
 * Sets a price, a ratio, a completion ratio or both ratios on the selected models. Needs
 * selected models and valid numbers; bothRatio needs both values.
 */
export function BatchSetModal({
  open,
  selectedCount,
  onCancel,
  onApply,
}: {
  open: boolean;
  selectedCount: number;
  onCancel: () => void;
  onApply: (input: BatchInput) => void;
}) {
  const { t } = useTranslation('settings');
  const [input, setInput] = useState<BatchInput>({ type: 'price', value: '', completionValue: '' });

  const valueLabel: Record<BatchType, string> = {
    price: t('ratio.columns.price'),
    ratio: t('ratio.columns.ratio'),
    completionRatio: t('ratio.columns.completionRatio'),
    bothRatio: t('ratio.columns.ratio'),
  };

  const onOk = () => {
    const problem = checkBatch(selectedCount, input);
    if (problem) {
      notify.error(t(problem));
      return;
    }
    onApply(input);
    setInput((current) => ({ ...current, value: '', completionValue: '' }));
  };

  return (
    <Modal
      open={open}
      title={t('ratio.batch.title')}
      onCancel={onCancel}
      onOk={onOk}
      okText={t('ratio.batch.apply')}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">
        {t('ratio.batch.selected', { count: selectedCount })}
      </Typography.Paragraph>
      <Form layout="vertical">
        <Form.Item label={t('ratio.batch.type')}>
          <Radio.Group
            value={input.type}
            onChange={(event) => setInput({ ...input, type: event.target.value as BatchType })}
            options={[
              { value: 'price', label: t('ratio.batch.types.price') },
              { value: 'ratio', label: t('ratio.batch.types.ratio') },
              { value: 'completionRatio', label: t('ratio.batch.types.completionRatio') },
              { value: 'bothRatio', label: t('ratio.batch.types.bothRatio') },
            ]}
          />
        </Form.Item>
        <Form.Item
          label={valueLabel[input.type]}
          htmlFor="batch-value"
          extra={input.type === 'price' ? undefined : t('ratio.batch.ratioHelp')}
        >
          <Input
            id="batch-value"
            inputMode="decimal"
            value={input.value}
            onChange={(event) => setInput({ ...input, value: event.target.value })}
          />
        </Form.Item>
        {input.type === 'bothRatio' ? (
          <Form.Item label={t('ratio.columns.completionRatio')} htmlFor="batch-completion-value">
            <Input
              id="batch-completion-value"
              inputMode="decimal"
              value={input.completionValue}
              onChange={(event) => setInput({ ...input, completionValue: event.target.value })}
            />
          </Form.Item>
        ) : null}
      </Form>
    </Modal>
  );
}

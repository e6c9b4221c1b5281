import { Button, Card, Popconfirm, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import type { OptionMap } from '../api/get-options';
import { useResetModelRatioMutation } from '../api/reset-model-ratio';
import { ModelRatioVisualEditor } from './model-ratio-visual-editor';
import { ModelsWithoutRatio } from './models-without-ratio';
import type { OptionFieldSpec } from './option-fields';
import { OptionSection } from './option-section';

function ResetModelRatioButton() {
  const { t } = useTranslation('settings');
  const mutation = useResetModelRatioMutation();
  return (
    <Popconfirm
      title={t('ratio.reset.confirm')}
      okButtonProps={{ danger: true }}
      onConfirm={() =>
        mutation
          .mutateAsync()
          .then(() => notify.success(t('ratio.reset.success')))
          .catch(() => undefined)
      }
    >
      <Button danger loading={mutation.isPending}>
        {t('ratio.reset.button')}
      </Button>
    </Popconfirm>
  );
}

/** The JSON tab: ModelPrice, ModelRatio, CompletionRatio and CacheRatio as JSON text. */
export function ModelRatioJsonEditor({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings');
  const fields: OptionFieldSpec[] = [
    {
      key: 'ModelPrice',
      kind: 'json',
      label: t('ratio.json.modelPrice'),
      help: t('ratio.json.modelPriceHelp'),
      rows: 8,
    },
    {
      key: 'ModelRatio',
      kind: 'json',
      label: t('ratio.json.modelRatio'),
      help: t('ratio.json.modelRatioHelp'),
      rows: 8,
    },
    {
      key: 'CompletionRatio',
      kind: 'json',
      label: t('ratio.json.completionRatio'),
      help: t('ratio.json.completionRatioHelp'),
      rows: 8,
    },
    {
      key: 'CacheRatio',
      kind: 'json',
      label: t('ratio.json.cacheRatio'),
      help: t('ratio.json.cacheRatioHelp'),
      rows: 8,
    },
  ];
  return (
    <OptionSection
      id="model-ratio-json"
      title={t('ratio.tabs.json')}
      options={options}
      fields={fields}
      actions={<ResetModelRatioButton />}
      embedded
    />
  );
}

/** Model pricing: JSON, visual table and models without a ratio. */
export function ModelRatioEditor({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings');
  return (
    <Card title={t('ratio.title')} data-testid="settings-section-model-ratio">
      <Tabs
        destroyOnHidden
        items={[
          { key: 'json', label: t('ratio.tabs.json'), children: <ModelRatioJsonEditor options={options} /> },
          {
            key: 'visual',
            label: t('ratio.tabs.visual'),
            children: <ModelRatioVisualEditor options={options} />,
          },
          { key: 'unset', label: t('ratio.tabs.unset'), children: <ModelsWithoutRatio options={options} /> },
        ]}
      />
    </Card>
  );
}

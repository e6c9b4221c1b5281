import { Card, Form, Input, InputNumber, Select, Slider, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSelfGroupsQuery, useUserModelsQuery } from '../api/get-playground-options';

export interface PlaygroundSettingsValue {
  group: string;
  model: string;
  temperature: number;
  maxTokens: number;
  systemPrompt: string;
}

/** Defaults (spec §9): model gpt-4o-mini, temperature 0, max tokens 0 (no limit). */
export const DEFAULT_PLAYGROUND_SETTINGS: PlaygroundSettingsValue = {
  group: '',
  model: 'gpt-4o-mini',
  temperature: 0,
  maxTokens: 0,
  systemPrompt: '',
};

/** Group, model, temperature (0.1–1, step 0.1), max tokens and system prompt. */
export function PlaygroundSettings({
  value,
  onChange,
}: {
  value: PlaygroundSettingsValue;
  onChange: (value: PlaygroundSettingsValue) => void;
}) {
  const { t } = useTranslation('playground');
  const models = useUserModelsQuery();
  const groups = useSelfGroupsQuery();
  const set = (patch: Partial<PlaygroundSettingsValue>) => onChange({ ...value, ...patch });
  const groupOptions = Object.entries(groups.data ?? {}).map(([name, group]) => ({
    value: name,
    label: `${name}${group.desc ? ` · ${group.desc}` : ''} (${group.ratio}x)`,
  }));
  const modelNames = models.data ?? [];
  const modelOptions = (
    modelNames.includes(value.model) || !value.model ? modelNames : [value.model, ...modelNames]
  ).map((name) => ({ value: name, label: name }));
  return (
    <Card title={t('settings.title')} size="small">
      <Form layout="vertical">
        <Form.Item label={t('settings.group')} htmlFor="pg-group">
          <Select
            id="pg-group"
            value={value.group || undefined}
            placeholder={t('settings.groupPlaceholder')}
            loading={groups.isPending}
            options={groupOptions}
            allowClear
            onChange={(group) => set({ group: group ?? '' })}
          />
        </Form.Item>
        <Form.Item label={t('settings.model')} htmlFor="pg-model">
          <Select
            id="pg-model"
            showSearch
            value={value.model || undefined}
            loading={models.isPending}
            options={modelOptions}
            onChange={(model) => set({ model })}
          />
        </Form.Item>
        <Form.Item label={t('settings.temperature', { value: value.temperature })}>
          <Slider
            min={0.1}
            max={1}
            step={0.1}
            value={value.temperature}
            onChange={(temperature) => set({ temperature })}
            aria-label={t('settings.temperatureLabel')}
          />
        </Form.Item>
        <Form.Item
          label={t('settings.maxTokens')}
          htmlFor="pg-max-tokens"
          extra={t('settings.maxTokensHint')}
        >
          <InputNumber
            id="pg-max-tokens"
            min={0}
            precision={0}
            value={value.maxTokens}
            onChange={(maxTokens) => set({ maxTokens: typeof maxTokens === 'number' ? maxTokens : 0 })}
            style={{ width: '100%' }}
          />
        </Form.Item>
        <Form.Item label={t('settings.systemPrompt')} htmlFor="pg-system" style={{ marginBottom: 0 }}>
          <Input.TextArea
            id="pg-system"
            autoSize={{ minRows: 3, maxRows: 8 }}
            value={value.systemPrompt}
            placeholder={t('settings.systemPromptPlaceholder')}
            onChange={(event) => set({ systemPrompt: event.target.value })}
          />
        </Form.Item>
      </Form>
      {models.isError ? <Typography.Text type="danger">{models.error.message}</Typography.Text> : null}
    </Card>
  );
}

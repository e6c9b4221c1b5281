import { Flex } from 'antd';
import { useTranslation } from 'react-i18next';
import type { OptionMap } from '../api/get-options';
import type { OptionFieldSpec } from './option-fields';
import { OptionSection } from './option-section';

/** Gemini (safety and API version maps) and Claude (headers, default max tokens, thinking adapter). */
export function ModelSettingsSections({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings');
  const gemini: OptionFieldSpec[] = [
    {
      key: 'gemini.safety_settings',
      kind: 'json',
      label: t('models.gemini.safety'),
      help: t('models.gemini.safetyHelp'),
      placeholder: '{"default": "OFF", "HARM_CATEGORY_CIVIC_INTEGRITY": "BLOCK_NONE"}',
    },
    {
      key: 'gemini.version_settings',
      kind: 'json',
      label: t('models.gemini.version'),
      help: t('models.gemini.versionHelp'),
      placeholder: '{"default": "v1beta", "gemini-1.0-pro": "v1"}',
    },
  ];
  const claude: OptionFieldSpec[] = [
    {
      key: 'claude.model_headers_settings',
      kind: 'json',
      label: t('models.claude.headers'),
      help: t('models.claude.headersHelp'),
      placeholder: '{"claude-3-7-sonnet-20250219-thinking": {"anthropic-beta": ["output-128k-2025-02-19"]}}',
    },
    {
      key: 'claude.default_max_tokens',
      kind: 'json',
      label: t('models.claude.defaultMaxTokens'),
      help: t('models.claude.defaultMaxTokensHelp'),
      placeholder: '{"default": 8192}',
    },
    {
      key: 'claude.thinking_adapter_enabled',
      kind: 'switch',
      label: t('models.claude.thinkingAdapter'),
      help: t('models.claude.thinkingAdapterHelp'),
      width: 'half',
    },
    {
      key: 'claude.thinking_adapter_budget_tokens_percentage',
      kind: 'number',
      label: t('models.claude.budgetPercentage'),
      help: t('models.claude.budgetPercentageHelp'),
      min: 0.1,
      max: 1,
      step: 0.1,
      width: 'half',
    },
  ];
  return (
    <Flex vertical gap={16}>
      <OptionSection id="gemini" title={t('models.gemini.title')} options={options} fields={gemini} />
      <OptionSection id="claude" title={t('models.claude.title')} options={options} fields={claude} />
    </Flex>
  );
}

import { useTranslation } from 'react-i18next';
import type { OptionMap } from '../api/get-options';
import type { OptionFieldSpec } from './option-fields';
import { OptionSection } from './option-section';

/** Model request rate limit: switch, period (≥ 0), total count (≥ 0, 0 = unlimited) and success count (≥ 1). */
export function RateLimitSection({ options }: { options: OptionMap }) {
  const { t } = useTranslation('settings');
  const fields: OptionFieldSpec[] = [
    {
      key: 'ModelRequestRateLimitEnabled',
      kind: 'switch',
      label: t('ratelimit.enabled'),
      help: t('ratelimit.enabledHelp'),
      width: 'full',
    },
    {
      key: 'ModelRequestRateLimitDurationMinutes',
      kind: 'number',
      label: t('ratelimit.duration'),
      help: t('ratelimit.durationHelp'),
      min: 0,
      precision: 0,
    },
    {
      key: 'ModelRequestRateLimitCount',
      kind: 'number',
      label: t('ratelimit.count'),
      help: t('ratelimit.countHelp'),
      min: 0,
      precision: 0,
    },
    {
      key: 'ModelRequestRateLimitSuccessCount',
      kind: 'number',
      label: t('ratelimit.successCount'),
      help: t('ratelimit.successCountHelp'),
      min: 1,
      precision: 0,
    },
  ];
  return <OptionSection id="ratelimit" title={t('ratelimit.title')} options={options} fields={fields} />;
}

import type { LogView } from '@switchyard/shared';
import { Descriptions, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatDollars } from '../../../lib/quota';
import { billingBreakdown, type LogOther } from './log-rules';

/** The expanded part of a row: content, ratios, the billing formula and extra request facts. */
export function LogDetails({ log, other }: { log: LogView; other: LogOther | null }) {
  const { t } = useTranslation('logs');
  const billing = billingBreakdown(other, log.prompt_tokens, log.completion_tokens);
  const items: { key: string; label: string; children: React.ReactNode }[] = [];
  const add = (key: string, value: React.ReactNode) => {
    if (value === undefined || value === null || value === '') return;
    items.push({ key, label: t(`details.${key}`), children: value });
  };
  add('content', log.content);
  if (other) {
    if (other.is_model_mapped) {
      add('requestModel', log.model_name);
      add('upstreamModel', other.upstream_model_name);
    }
    const perCall = typeof other.model_price === 'number' && other.model_price >= 0;
    if (perCall) add('modelPrice', formatDollars(other.model_price ?? 0));
    else {
      add('modelRatio', other.model_ratio);
      add('completionRatio', other.completion_ratio);
    }
    add('groupRatio', other.group_ratio);
    if (other.cache_tokens) add('cacheTokens', `${other.cache_tokens} × ${other.cache_ratio ?? 1}`);
    if (other.audio) {
      add('audioInput', other.audio_input);
      add('audioOutput', other.audio_output);
      add('audioRatio', other.audio_ratio);
      add('audioCompletionRatio', other.audio_completion_ratio);
    }
    add('reasoningEffort', other.reasoning_effort);
    if (typeof other.frt === 'number' && other.frt > 0)
      add('firstWord', `${(other.frt / 1000).toFixed(2)} s`);
  }
  if (billing) {
    add(
      'billing',
      <Typography.Text code>
        {billing.perCall
          ? t('details.perCallFormula', { price: formatDollars(billing.promptPrice) })
          : t('details.ratioFormula', {
              prompt: log.prompt_tokens,
              promptPrice: formatDollars(billing.promptPrice),
              completion: log.completion_tokens,
              completionPrice: formatDollars(billing.completionPrice),
              total: formatDollars(billing.total),
            })}
      </Typography.Text>,
    );
  }
  add('ip', log.ip);
  return (
    <Descriptions size="small" column={1} bordered items={items} data-testid={`log-details-${log.id}`} />
  );
}

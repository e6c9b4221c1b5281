import { Flex, Skeleton, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { useFormatQuota } from '../../../lib/quota';
import { useLogStatQuery } from '../api/get-logs';
import type { LogFilters } from '../api/log-keys';

/** Header totals: consumed quota, RPM and TPM for the current filters. */
export function LogStatBar({ filters, admin }: { filters: LogFilters; admin: boolean }) {
  const { t } = useTranslation('logs');
  const formatQuota = useFormatQuota();
  const stat = useLogStatQuery(filters, admin);
  if (stat.isPending) return <Skeleton.Input active size="small" style={{ width: 320 }} />;
  const data = stat.data ?? { quota: 0, rpm: 0, tpm: 0 };
  return (
    <Flex gap={8} wrap data-testid="log-stat">
      <Tag color="blue">{t('stat.quota', { quota: formatQuota(data.quota) })}</Tag>
      <Tag color="pink">{t('stat.rpm', { rpm: data.rpm })}</Tag>
      <Tag color="gold">{t('stat.tpm', { tpm: data.tpm })}</Tag>
    </Flex>
  );
}

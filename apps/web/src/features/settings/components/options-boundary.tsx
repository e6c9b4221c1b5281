import { Button, Result, Skeleton } from 'antd';
import { type ReactNode, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../../../lib/notify';
import { type OptionMap, useOptionsQuery } from '../api/get-options';

/**
 * Loads GET /api/option/ for a settings tab: a skeleton while loading, '刷新失败' with a retry
 * button when it fails, then the tab's sections with the options map.
 */
export function OptionsBoundary({ children }: { children: (options: OptionMap) => ReactNode }) {
  const { t } = useTranslation('settings');
  const query = useOptionsQuery();

  useEffect(() => {
    if (query.errorUpdatedAt > 0) notify.error(t('page.loadFailed'));
  }, [query.errorUpdatedAt, t]);

  if (query.data) return <>{children(query.data)}</>;
  if (query.isError) {
    return (
      <Result
        status="error"
        title={t('page.loadFailed')}
        subTitle={query.error.message}
        extra={<Button onClick={() => void query.refetch()}>{t('actions.retry')}</Button>}
      />
    );
  }
  return <Skeleton active paragraph={{ rows: 10 }} />;
}

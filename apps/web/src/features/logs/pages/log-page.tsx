import { Alert, Card, Flex } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdminRole } from '../../../lib/access';
import { useSessionUser } from '../../../lib/session';
import { useTableParams } from '../../../lib/use-table-params';
import { useLogsQuery } from '../api/get-logs';
import type { LogFilters } from '../api/log-keys';
import { ExportCsvButton } from '../components/export-csv-button';
import { defaultLogFilters, LogFiltersForm } from '../components/log-filters-form';
import { LogStatBar } from '../components/log-stat-bar';
import { LogTable } from '../components/log-table';

/** A capped total as each language writes it: 1,000 or 10,000 in English, 1000 or 1万 in Chinese. */
export function formatCount(count: number, language: string): string {
  return language.startsWith('en')
    ? count.toLocaleString('en-US')
    : new Intl.NumberFormat('zh-CN', { notation: 'compact' }).format(count);
}

/** /log — usage logs: filters, totals, expandable rows; admins see every user's rows and can export them. */
export function LogPage() {
  const { t, i18n } = useTranslation('logs');
  const user = useSessionUser();
  const admin = isAdminRole(user?.role ?? 0);
  const [filters, setFilters] = useState<LogFilters>(() => defaultLogFilters());
  const { params, resetPage, pagination } = useTableParams();
  const query = useLogsQuery({ ...filters, ...params }, admin);

  return (
    <Card
      title={
        <Flex gap={12} align="center" wrap style={{ padding: '8px 0' }}>
          <span>{t('title')}</span>
          <LogStatBar filters={filters} admin={admin} />
        </Flex>
      }
      extra={admin && user ? <ExportCsvButton filters={filters} userId={user.id} /> : null}
    >
      <LogFiltersForm
        admin={admin}
        initial={filters}
        onSearch={(next) => {
          setFilters(next);
          resetPage();
        }}
      />
      {query.isError ? (
        <Alert
          type="error"
          showIcon
          title={t('loadFailed')}
          description={query.error.message}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      <LogTable
        logs={query.data?.items ?? []}
        admin={admin}
        loading={query.isFetching}
        pagination={{
          ...pagination(query.data?.total ?? 0),
          showTotal: (total) =>
            query.data?.total_capped
              ? t('list.totalCapped', { rows: formatCount(total, i18n.language) })
              : t('list.total', { count: total }),
        }}
      />
    </Card>
  );
}

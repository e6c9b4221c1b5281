import { Alert, Card } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdminRole } from '../../../lib/access';
import { useSessionUser } from '../../../lib/session';
import { useTableParams } from '../../../lib/use-table-params';
import { useMidjourneyTasksQuery } from '../api/get-tasks';
import type { TaskFilters } from '../api/task-types';
import { MidjourneyTable } from '../components/midjourney-table';
import { TaskFiltersForm } from '../components/task-filters-form';

/** /midjourney — drawing tasks (own, or every user's for admins); the window starts 30 days back. */
export function MidjourneyPage() {
  const { t } = useTranslation('tasks');
  const admin = isAdminRole(useSessionUser()?.role ?? 0);
  const [filters, setFilters] = useState<TaskFilters>(() => ({
    id: '',
    channelId: '',
    start: dayjs().subtract(30, 'day').unix(),
    end: dayjs().add(1, 'hour').unix(),
  }));
  const { params, resetPage, pagination } = useTableParams();
  const query = useMidjourneyTasksQuery({ ...filters, ...params }, admin);
  return (
    <Card title={t('midjourney.title')}>
      <TaskFiltersForm
        admin={admin}
        initial={filters}
        idLabel={t('filters.mjId')}
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
      <MidjourneyTable
        tasks={query.data?.items ?? []}
        admin={admin}
        loading={query.isFetching}
        pagination={pagination(query.data?.total ?? 0)}
      />
    </Card>
  );
}

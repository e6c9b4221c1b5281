import { Alert, Card } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdminRole } from '../../../lib/access';
import { useSessionUser } from '../../../lib/session';
import { useTableParams } from '../../../lib/use-table-params';
import { useAsyncTasksQuery } from '../api/get-tasks';
import type { TaskFilters } from '../api/task-types';
import { AsyncTaskTable } from '../components/async-task-table';
import { TaskFiltersForm } from '../components/task-filters-form';

/** /task — async (music) tasks; the window starts at today's midnight. */
export function TaskPage() {
  const { t } = useTranslation('tasks');
  const admin = isAdminRole(useSessionUser()?.role ?? 0);
  const [filters, setFilters] = useState<TaskFilters>(() => ({
    id: '',
    channelId: '',
    start: dayjs().startOf('day').unix(),
    end: dayjs().add(1, 'hour').unix(),
  }));
  const { params, resetPage, pagination } = useTableParams();
  const query = useAsyncTasksQuery({ ...filters, ...params }, admin);
  return (
    <Card title={t('task.title')}>
      <TaskFiltersForm
        admin={admin}
        initial={filters}
        idLabel={t('filters.taskId')}
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
      <AsyncTaskTable
        tasks={query.data?.items ?? []}
        admin={admin}
        loading={query.isFetching}
        pagination={pagination(query.data?.total ?? 0)}
      />
    </Card>
  );
}

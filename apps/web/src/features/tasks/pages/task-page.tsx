import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useAsyncTasksQuery } from '../api/get-tasks';
import { AsyncTaskTable } from '../components/async-task-table';
import { TaskListCard, useTaskList } from '../components/task-list-card';

const windowEnd = () => dayjs().add(1, 'hour').unix();
const windowStart = () => dayjs().startOf('day').unix();

/** /task — async (music) tasks; the window starts at today's midnight. */
export function TaskPage() {
  const { t } = useTranslation('tasks');
  const { admin, filters, params, pagination, search } = useTaskList(windowStart, windowEnd);
  const query = useAsyncTasksQuery({ ...filters, ...params }, admin);
  return (
    <TaskListCard
      title={t('task.title')}
      idLabel={t('filters.taskId')}
      admin={admin}
      filters={filters}
      onSearch={search}
      error={query.isError ? query.error : null}
    >
      <AsyncTaskTable
        tasks={query.data?.items ?? []}
        admin={admin}
        loading={query.isFetching}
        pagination={pagination(query.data?.total ?? 0)}
      />
    </TaskListCard>
  );
}

import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useMidjourneyTasksQuery } from '../api/get-tasks';
import { MidjourneyTable } from '../components/midjourney-table';
import { TaskListCard, useTaskList } from '../components/task-list-card';

const windowEnd = () => dayjs().add(1, 'hour').unix();
const windowStart = () => dayjs().subtract(30, 'day').unix();

/** /midjourney — drawing tasks (own, or every user's for admins); the window starts 30 days back. */
export function MidjourneyPage() {
  const { t } = useTranslation('tasks');
  const { admin, filters, params, pagination, search } = useTaskList(windowStart, windowEnd);
  const query = useMidjourneyTasksQuery({ ...filters, ...params }, admin);
  return (
    <TaskListCard
      title={t('midjourney.title')}
      idLabel={t('filters.mjId')}
      admin={admin}
      filters={filters}
      onSearch={search}
      error={query.isError ? query.error : null}
    >
      <MidjourneyTable
        tasks={query.data?.items ?? []}
        admin={admin}
        loading={query.isFetching}
        pagination={pagination(query.data?.total ?? 0)}
      />
    </TaskListCard>
  );
}

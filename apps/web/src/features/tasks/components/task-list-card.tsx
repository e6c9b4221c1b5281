import { Alert, Card } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAdminRole } from '../../../lib/access';
import { useSessionUser } from '../../../lib/session';
import { useTableParams } from '../../../lib/use-table-params';
import type { TaskFilters } from '../api/task-types';
import { TaskFiltersForm } from './task-filters-form';

/** Filters, paging and role shared by the drawing and task lists; the window starts at `start`. */
export function useTaskList(start: () => number, end: () => number) {
  const admin = isAdminRole(useSessionUser()?.role ?? 0);
  const [filters, setFilters] = useState<TaskFilters>(() => ({
    id: '',
    channelId: '',
    start: start(),
    end: end(),
  }));
  const { params, resetPage, pagination } = useTableParams();
  const search = (next: TaskFilters) => {
    setFilters(next);
    resetPage();
  };
  return { admin, filters, params, pagination, search };
}

/** The card around a task table: title, filter form and the load error. */
export function TaskListCard(props: {
  title: string;
  idLabel: string;
  admin: boolean;
  filters: TaskFilters;
  onSearch: (next: TaskFilters) => void;
  error: Error | null;
  children: ReactNode;
}) {
  const { t } = useTranslation('tasks');
  return (
    <Card title={props.title}>
      <TaskFiltersForm
        admin={props.admin}
        initial={props.filters}
        idLabel={props.idLabel}
        onSearch={props.onSearch}
      />
      {props.error ? (
        <Alert
          type="error"
          showIcon
          title={t('loadFailed')}
          description={props.error.message}
          style={{ marginBottom: 16 }}
        />
      ) : null}
      {props.children}
    </Card>
  );
}

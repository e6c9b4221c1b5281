import { Table, type TableColumnsType, type TablePaginationConfig, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PINNED_RIGHT } from '../../../components/pinned-column';
import type { AsyncTask } from '../api/task-types';
import { DurationTag, formatTaskTime, ProgressCell, StatusTag } from './task-cells';
import { TextDialogLink } from './text-dialog-link';

/** Async (music) tasks: times, duration, (admin) channel, platform, action, id, status, progress, fail reason. */
export function AsyncTaskTable({
  tasks,
  admin,
  loading,
  pagination,
}: {
  tasks: AsyncTask[];
  admin: boolean;
  loading: boolean;
  pagination: TablePaginationConfig;
}) {
  const { t } = useTranslation('tasks');
  const columns: TableColumnsType<AsyncTask> = [
    {
      title: t('columns.submitTime'),
      dataIndex: 'submit_time',
      render: (value: number) => formatTaskTime(value, 's'),
    },
    {
      title: t('columns.finishTime'),
      dataIndex: 'finish_time',
      render: (value: number) => formatTaskTime(value, 's'),
    },
    {
      title: t('columns.duration'),
      key: 'duration',
      render: (_value, task) => <DurationTag submit={task.submit_time} finish={task.finish_time} unit="s" />,
    },
    ...(admin
      ? ([
          { title: t('columns.channel'), dataIndex: 'channel_id', render: (id: number) => <Tag>{id}</Tag> },
        ] satisfies TableColumnsType<AsyncTask>)
      : []),
    {
      title: t('columns.platform'),
      dataIndex: 'platform',
      render: (platform: string) => <Tag color="geekblue">{platform}</Tag>,
    },
    {
      title: t('columns.action'),
      dataIndex: 'action',
      render: (action: string) => (
        <Tag color="blue">{t(`taskActions.${action}`, { defaultValue: action })}</Tag>
      ),
    },
    {
      title: t('columns.taskId'),
      dataIndex: 'task_id',
      render: (id: string) => <Typography.Text copyable>{id}</Typography.Text>,
    },
    {
      title: t('columns.status'),
      dataIndex: 'status',
      render: (status: string) => <StatusTag status={status} />,
    },
    {
      title: t('columns.progress'),
      key: 'progress',
      render: (_value, task) => <ProgressCell progress={task.progress} status={task.status} />,
    },
    {
      title: t('columns.failReason'),
      dataIndex: 'fail_reason',
      ...PINNED_RIGHT,
      render: (text: string) => <TextDialogLink text={text} title={t('columns.failReason')} />,
    },
  ];
  return (
    <Table<AsyncTask>
      rowKey="id"
      columns={columns}
      dataSource={tasks}
      loading={loading}
      pagination={pagination}
      scroll={{ x: 'max-content' }}
      size="middle"
    />
  );
}
